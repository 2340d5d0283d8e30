// AgentV 5 lifecycle extensions: each leaves a file in the workspace that the target then reports.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function beforeAll(context) {
  writeFileSync(join(context.workspace_path, 'before-all.txt'), `${context.hook_name} ${context.test_id}`);
  return { metadata: { ran: true } };
}

export async function beforeEach(context) {
  writeFileSync(join(context.workspace_path, `each-${context.test_id}.txt`), `${context.hook_name} for ${context.case_input}`);
}

export function afterEach(context) {
  writeFileSync(join(context.workspace_path, `after-${context.test_id}.txt`), 'done');
}
