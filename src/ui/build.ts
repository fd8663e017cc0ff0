// Bundles the workbench front end into dist/ui/: the web UI that `simulate --serve` serves at
// /ui/ and the script `simulate --report` inlines into its HTML file. Run by `npm run build`.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', '..', 'dist', 'ui');
mkdirSync(outDir, { recursive: true });

await build({
  entryPoints: { app: join(here, 'app', 'main.tsx'), report: join(here, 'report', 'main.tsx') },
  outdir: outDir,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome100', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  loader: { '.css': 'css' },
  logLevel: 'warning',
});
copyFileSync(join(here, 'app', 'index.html'), join(outDir, 'index.html'));
