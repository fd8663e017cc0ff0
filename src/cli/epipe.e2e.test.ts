// The CLI writing into a pipe its reader closed early (`explain ... | head`): it ends quietly.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { it } from 'node:test';

const root = join(import.meta.dirname, '../..');

it('explain into a pipe its reader already closed exits 0 without a stack trace', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'explain', join(root, 'scenarios/dra-gpu.yaml'), '--output', 'json'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // As `head -1` has done by the time the answer is written: the reading end is closed.
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
