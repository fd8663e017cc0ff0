// Bundles the package's JavaScript into dist/: one file per entry point (the CLI and each of
// package.json's `exports`) at the path tsc would have written, and the code they share in
// dist/chunks/. Node then compiles a few dozen files at `run`'s start instead of about a thousand.
// Every entry imports the same shared chunks, so an out-of-tree plugin importing
// `kube-scheduler-ts/plugin` gets the very classes (Status, NodeInfo...) the CLI runs with.
// Run by `npm run build` after tsc, which writes only the declarations.
import { build, type Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const src = join(root, 'src');

interface PackageJson {
  bin: Record<string, string>;
  exports: Record<string, string | { default?: string }>;
}

/**
 * The files that code outside the bundle may import or run, read from package.json (its bin and
 * the `exports`' JavaScript files), so that a new entry point cannot be left out: dist/x.js is
 * built from src/x.ts.
 */
function bundleEntries(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  const targets = [...Object.values(pkg.bin), ...Object.values(pkg.exports).map((t) => (typeof t === 'string' ? t : t.default ?? ''))];
  return targets.filter((t) => t.endsWith('.js')).map((t) => {
    const m = /^(?:\.\/)?dist\/(.+)\.js$/.exec(t);
    if (!m) throw new Error(`package.json: ${t} is not a file of dist/`);
    return join(src, `${m[1]}.ts`);
  });
}

/**
 * prom-client's process CPU metric requires @opentelemetry/api at load (~25 ms of CPU) for exemplars,
 * which our metrics never enable: it gets an API whose use would fail loudly instead.
 */
const withoutOpenTelemetry: Plugin = {
  name: 'without-opentelemetry',
  setup(b) {
    b.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: 'opentelemetry-api', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: "const off = () => { throw new Error('exemplars need @opentelemetry/api, which this bundle leaves out'); };\n"
        + 'module.exports = { trace: { getSpan: off }, context: { active: off } };\n',
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: bundleEntries(),
  outdir: join(root, 'dist'),
  outbase: src,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // As tsc's maps: the mappings only (stack traces), not a copy of every source.
  sourcesContent: false,
  // tsx is the plugin loader for TypeScript plugins: it registers itself by URL.
  external: ['tsx', 'tsx/*'],
  plugins: [withoutOpenTelemetry],
  // The bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
  logOverride: { 'equals-negative-zero': 'silent' },
});
