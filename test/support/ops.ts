import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import type { LocalStack } from '../../lib/local/stack.js';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * `npm run ops -- ...` against a test's local stack, as an operator runs it.
 * Asynchronous, so the stack's server in this process keeps answering.
 */
export function ops(stack: LocalStack, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'ops', '--', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, DATA_DIR: dirname(stack.info.mailbox_dir) } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
