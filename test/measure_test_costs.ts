// `npm run test:costs`: runs the fast suite in this one process, file after file, and writes
// test/test_costs.json, the CPU milliseconds each file added (loading what it imports first, then
// running its tests), from which test_files.ts deals `npm test` out to balanced shards. Run it on
// a quiet machine after adding or reshaping heavy tests; a file it does not list counts as the
// median cost.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { costsFile, root, testFiles } from './test_files.js';

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const costs: Record<string, number> = {};
for (const file of testFiles('fast', '')) {
  const name = relative(root, file);
  const start = cpuMs();
  await import(pathToFileURL(file).href);
  // Top-level tests run one after another: this one starts when the file's own are done.
  await new Promise<void>((resolve) => {
    void test(`cost of ${name}`, () => {
      costs[name] = Math.max(1, Math.round(cpuMs() - start));
      resolve();
    });
  });
}
writeFileSync(costsFile, JSON.stringify(costs, null, 2) + '\n');
const ranked = Object.entries(costs).sort((a, b) => b[1] - a[1]);
const total = ranked.reduce((sum, [, ms]) => sum + ms, 0);
process.stderr.write(ranked.slice(0, 15).map(([f, ms]) => `${String(ms).padStart(6)} ms  ${f}\n`).join('') +
  `${ranked.length} files, ${total} ms of CPU: ${relative(root, costsFile)}\n`);
