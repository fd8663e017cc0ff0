// The progress line: drawn only on a terminal or when asked, redrawn at most once per percent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressLine } from './progress.js';

const stream = (terminal: boolean) => {
  const writes: string[] = [];
  return { writes, io: { stdout: () => assert.fail('progress never goes to stdout'), stderr: (t: string) => void writes.push(t), stderrIsTerminal: () => terminal } };
};

test('no line when stderr is not a terminal and --progress was not given', () => {
  const { io } = stream(false);
  assert.equal(progressLine(io, false), undefined);
  assert.notEqual(progressLine(io, true), undefined);
});

test('100,000 units make at most one redraw per percent, and end with one newline', () => {
  const { io, writes } = stream(true);
  const line = progressLine(io, false)!;
  for (let i = 0; i <= 100_000; i++) line.update('pods attempted', i, 100_000);
  line.end();
  assert.equal(writes.length, 102);
  assert.equal(writes[1], '\r\u001b[Kpods attempted: 1000/100000 (1%)');
  assert.deepEqual(writes.slice(-2), ['\r\u001b[Kpods attempted: 100000/100000 (100%)', '\n']);
});

test('an unknown total redraws every 1000 units; a new phase redraws at once', () => {
  const { io, writes } = stream(true);
  const line = progressLine(io, false)!;
  for (let i = 1; i <= 2500; i++) line.update('copies placed', i, 0);
  line.update('next phase', 1, 0);
  assert.deepEqual(writes, ['\r\u001b[Kcopies placed: 1', '\r\u001b[Kcopies placed: 1000', '\r\u001b[Kcopies placed: 2000', '\r\u001b[Knext phase: 1']);
});
