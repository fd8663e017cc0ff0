// The bundled scenarios/default.yaml that `simulate`, `explain` and `serve` run without a scenario
// argument, found from this module in src/cli/ or in a bundle file (dist/x.js or dist/y/x.js).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function defaultScenarioPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '../../scenarios/default.yaml'), join(here, '../scenarios/default.yaml')];
  return candidates.find((p) => existsSync(p)) ?? candidates[0]!;
}
