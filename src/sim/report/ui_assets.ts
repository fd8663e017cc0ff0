// Where the built front end (dist/ui/, made by `npm run build`) is, from the built package (this
// code then runs from a bundle file, dist/x.js or dist/y/x.js) or from the sources run through tsx.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const candidates = [new URL('../ui/', import.meta.url), new URL('./ui/', import.meta.url), new URL('../../../dist/ui/', import.meta.url)];

class UiAssetsMissing extends Error {
  override name = 'UiAssetsMissing';
}

/** The folder holding the built front end. */
export function uiAssetDir(): string {
  for (const dir of candidates) if (existsSync(new URL('report.js', dir))) return fileURLToPath(dir);
  throw new UiAssetsMissing('the web UI is not built: run `npm run build` (it writes dist/ui/)');
}

export function readUiAsset(name: string): string {
  return readFileSync(`${uiAssetDir()}${name}`, 'utf8');
}
