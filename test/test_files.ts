// Finds the test files of one suite: `npm test` loads the fast `*.test.ts`, `npm run test:e2e` the
// real-time `*.e2e.test.ts`; TEST_FILTER keeps the files whose path contains it.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type Suite = 'fast' | 'e2e';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const e2eSuffix = '.e2e.test.ts';

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

export function testFiles(suite: Suite, filter = process.env.TEST_FILTER): string[] {
  return [...walk(join(root, 'src')), ...walk(join(root, 'test'))].filter(
    (file) => file.endsWith(e2eSuffix) === (suite === 'e2e') && (!filter || relative(root, file).includes(filter)),
  );
}

/** Imports every file of the suite into this process: one TypeScript loader for all of them. */
export async function loadSuite(suite: Suite): Promise<void> {
  for (const file of testFiles(suite)) await import(pathToFileURL(file).href);
}
