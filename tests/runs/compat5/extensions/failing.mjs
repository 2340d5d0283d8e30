export function beforeAll() {
  throw new Error('the testbed is not ready');
}
