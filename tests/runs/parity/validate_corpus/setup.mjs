export async function beforeAll(context) {
  return { output: `ready in ${context.eval_dir}` };
}
