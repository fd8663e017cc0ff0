// A generated block inside a hand-written Markdown file: what lies between `<!-- NAME start -->`
// and `<!-- NAME end -->` belongs to the script that writes it, the rest to people.
import { readFileSync, writeFileSync } from 'node:fs';

/** `text` with the block NAME's content replaced by `body` (markers kept); throws if the block is missing. */
export function replaceBlock(text: string, name: string, body: string, file = 'the file'): string {
  const start = `<!-- ${name} start -->`;
  const end = `<!-- ${name} end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`--docs: ${file} has no "${start}" ... "${end}" block`);
  return `${text.slice(0, from)}${start}\n${body.replace(/\n+$/, '')}\n${text.slice(to)}`;
}

/** Rewrites the block NAME of `file` in place. */
export function writeBlock(file: string, name: string, body: string): void {
  writeFileSync(file, replaceBlock(readFileSync(file, 'utf8'), name, body, file));
}
