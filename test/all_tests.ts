// Loads every *.test.ts into one process: starting a TypeScript loader per file costs more than
// the tests themselves. `npm test` runs this file.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...testFiles(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filter = process.env.TEST_FILTER;
for (const file of [...testFiles(join(root, 'src')), ...testFiles(join(root, 'test'))]) {
  if (filter && !relative(root, file).includes(filter)) continue;
  await import(pathToFileURL(file).href);
}
