// Bundles dist/cluster/kube/kube_config.js (client-node's KubeConfig and what it imports) into one
// file in place: Node then compiles one module instead of about a thousand at `run`'s start.
// Run by `npm run build` after tsc.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const target = join(import.meta.dirname, '..', '..', 'dist', 'cluster', 'kube', 'kube_config.js');

await build({
  entryPoints: [target],
  outfile: target,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The package's CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __kubeConfigRequire } from 'node:module'; const require = __kubeConfigRequire(import.meta.url);" },
  logLevel: 'warning',
});
// tsc's source map describes the file this replaced.
rmSync(`${target}.map`, { force: true });
