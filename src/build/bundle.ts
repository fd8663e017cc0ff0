// Bundles the package's JavaScript into dist/: every module in one file, dist/core.js, and one
// thin file per entry point (the CLI and each of package.json's `exports`) at the path tsc would
// have written, re-exporting from it. Node then compiles one file at `run`'s start instead of
// about a thousand, and the scheduling cycle's classes and functions see each other as locals of
// one scope: split into shared chunks, they reached each other through module imports, which cost
// SchedulingBasic 12% (docs/performance.md). Every entry imports the same core, so an out-of-tree
// plugin importing `kube-scheduler-ts/plugin` gets the very classes (Status, NodeInfo...) the CLI
// runs with. Two packages are files of their own under dist/vendor/ (KubeConfig, YAML): `run`'s
// first lists (dist/cli/commands/run_first_lists.js) need them before the core loads, and both
// import the same copy. The core's body and the vendor packages load through V8's code
// cache. Run by `npm run build` after tsc, which writes only the declarations.
import { build, type Plugin } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scriptHash } from '../util/cached_script.js';

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

/**
 * KubeConfig without the rest of @kubernetes/client-node: the package's index, and the generated
 * API's index that KubeConfig's module imports two functions from, re-export ~900 generated API
 * models. `run` reaches them through a command imported on use, which esbuild wraps whole (no tree
 * shaking), so they were all kept and run at load: about 40 ms of `run`'s start CPU and 270 kB.
 * kube_config.ts's import goes to the module that defines KubeConfig, whose import of the
 * generated index gets only the two functions it uses.
 */
const kubeConfigOnly: Plugin = {
  name: 'kube-config-only',
  setup(b) {
    const dist = join(dirname(createRequire(import.meta.url).resolve('@kubernetes/client-node/package.json')), 'dist');
    b.onResolve({ filter: /^@kubernetes\/client-node$/ }, (args) => (
      args.importer === join(src, 'cluster', 'kube', 'kube_config.ts') ? { path: join(dist, 'config.js') } : undefined));
    b.onResolve({ filter: /^\.\/gen\/index\.js$/ }, (args) => (
      args.importer === join(dist, 'config.js') ? { path: 'client-node-gen', namespace: 'kube-config-only' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'kube-config-only' }, () => ({
      contents: "export { createConfiguration } from './gen/configuration.js';\nexport { ServerConfiguration } from './gen/servers.js';\n",
      resolveDir: dist,
      loader: 'js',
    }));
  },
};

/**
 * What KubeConfig imports only for proxies (socks-proxy-agent with debug, hpagent) and for the
 * generated client's fetch (node-fetch with whatwg-url), none of which `run` uses unless a
 * kubeconfig names a proxy: each is loaded when first called instead of when KubeConfig loads,
 * which `run`'s first lists wait for (~8 ms of their start). Same packages, same code: an import
 * of one becomes a module whose functions and classes require the package on their first call
 * (a class's constructor returns the package's own instance).
 */
const lazyPackages: Record<string, Record<string, 'function' | 'class'>> = {
  'node-fetch': { default: 'function', Headers: 'class' },
  'socks-proxy-agent': { SocksProxyAgent: 'class' },
  hpagent: { HttpProxyAgent: 'class', HttpsProxyAgent: 'class' },
};
const loadedOnUse: Plugin = {
  name: 'loaded-on-use',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(lazyPackages).join('|')})$`);
    b.onResolve({ filter }, (args) => (args.namespace === 'file' ? { path: args.path, namespace: 'loaded-on-use', pluginData: args.resolveDir } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'loaded-on-use' }, (args) => {
      const pkg = JSON.stringify(args.path);
      // `default` is the package's module.exports (a CommonJS package's), any other name one of its exports.
      const target = (name: string): string => (name === 'default' ? 'load()' : `load()[${JSON.stringify(name)}]`);
      const lines = [`let loaded;`, `const load = () => (loaded ??= require(${pkg}));`];
      for (const [name, kind] of Object.entries(lazyPackages[args.path]!)) {
        const local = name === 'default' ? 'loadedDefault' : name;
        lines.push(kind === 'class'
          ? `class ${local} { constructor(...args) { return new (${target(name)})(...args); } }`
          : `function ${local}(...args) { return ${target(name)}(...args); }`);
        lines.push(name === 'default' ? `export default ${local};` : `export { ${local} };`);
      }
      return { contents: lines.join('\n'), loader: 'js', resolveDir: args.pluginData as string };
    });
  },
};

const distDir = join(root, 'dist');
const kubeConfigModule = join(src, 'cluster', 'kube', 'kube_config.ts');
/** The packages `run`'s first lists (bin.ts, before the core loads) share with the core: one copy each. */
const vendor = { kubeConfig: join(distDir, 'vendor', 'kube_config.js'), yaml: join(distDir, 'vendor', 'yaml.js') };

/** The import specifier of the file `target` from the file `out`. */
const specifierFrom = (out: string, target: string): string => {
  const rel = relative(dirname(out), target).split('\\').join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

/** KubeConfig and YAML, imported from dist/vendor/ by the bundle written to `out` instead of copied into it. */
const fromVendor = (out: string): Plugin => ({
  name: 'from-vendor',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: specifierFrom(out, vendor.yaml), external: true }));
    b.onResolve({ filter: /\/kube_config\.js$/ }, (args) => (
      join(args.resolveDir, args.path) === kubeConfigModule.replace(/\.ts$/, '.js') ? { path: specifierFrom(out, vendor.kubeConfig), external: true } : undefined));
  },
});

/**
 * The modules the core's body gets from dist/core.js (`__imports`), by the name it passes them
 * under: KubeConfig and YAML (dist/vendor/, shared with run's first lists), and import() itself,
 * which fails in functions V8 restored from a code cache (src/util/import_module.ts).
 */
const fromCoreModule: Record<string, string> = {
  kubeConfig: kubeConfigModule.replace(/\.ts$/, '.js'),
  importModule: join(src, 'util', 'import_module.js'),
};
const injectedByCore: Plugin = {
  name: 'injected-by-core',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: 'yaml', namespace: 'injected-by-core' }));
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const name = Object.keys(fromCoreModule).find((n) => fromCoreModule[n] === join(args.resolveDir, args.path));
      return name === undefined ? undefined : { path: name, namespace: 'injected-by-core' };
    });
    b.onLoad({ filter: /.*/, namespace: 'injected-by-core' }, (args) => ({ contents: `module.exports = __imports.${args.path};`, loader: 'js' }));
  },
};

// The bundled CommonJS dependencies call require(); an ES module has none of its own.
const requireBanner = { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" };
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' } as const;

/**
 * Rewrites a built CommonJS body in ASCII and returns its scriptHash. In ASCII, Node reads the file
 * as one-byte text without decoding UTF-8 (a few non-ASCII characters, in comments and one
 * dependency's regular expression, made the core's 2.6 MB a two-byte string decoded in 15-40 ms at
 * each start): each becomes its \u escape, which means the same there.
 */
const asciiBody = (path: string): string => {
  const source = readFileSync(path, 'utf8').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(path, source);
  if (/[^\w$.]import\(/.test(source)) throw new Error(`${path}: an import() call; import through src/util/import_module.ts`);
  return scriptHash(source);
};

/** The one loader of every cached body (src/util/cached_script.ts), a module of its own beside the vendor packages. */
const cachedScript = join(distDir, 'vendor', 'cached_script.js');
await build({ ...common, entryPoints: [join(src, 'util', 'cached_script.ts')], outfile: cachedScript });

/**
 * The ES module `out` that runs the CommonJS `body` (its code cache beside it, `.v8cache`) through
 * requireCached, passes its exports to `start` (JavaScript of `exports`) and exports `names` of what that returns.
 */
const cachedLoader = (out: string, body: string, start: string, names: readonly string[]): string => [
  `import { requireCached } from ${JSON.stringify(specifierFrom(out, cachedScript))};`,
  'const loaded = requireCached({',
  `  file: new URL('./${basename(body)}', import.meta.url),`,
  `  hash: ${JSON.stringify(asciiBody(body))},`,
  `  cacheFile: new URL('./${basename(body, '.cjs')}.v8cache', import.meta.url),`,
  `}, (exports) => ${start});`,
  `export const { ${names.join(', ')} } = loaded;`,
].join('\n');

// The vendor packages, each a CommonJS body loaded through the code cache as the core's body is:
// run's first lists load them before the core, and KubeConfig alone was 41-45 ms of compilation.
const yamlNames = Object.keys(createRequire(import.meta.url)('yaml') as object).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
const vendorBody = (out: string): string => out.replace(/\.js$/, '.body.cjs');
// Strict, as the ES modules they were bundled as before (a CommonJS file is sloppy unless it says so).
const strict = { js: '"use strict";' };
await build({ ...common, format: 'cjs', banner: strict, entryPoints: [kubeConfigModule], outfile: vendorBody(vendor.kubeConfig), plugins: [withoutOpenTelemetry, kubeConfigOnly, loadedOnUse] });
await build({
  ...common,
  format: 'cjs',
  banner: strict,
  // yaml's names, listed here, become the file's own exports.
  stdin: { contents: `import * as yaml from 'yaml';\nexport const { ${yamlNames.join(', ')} } = yaml;\n`, resolveDir: src, sourcefile: 'yaml.ts', loader: 'ts' },
  outfile: vendorBody(vendor.yaml),
});
for (const out of [vendor.kubeConfig, vendor.yaml]) {
  const names = Object.keys(createRequire(import.meta.url)(vendorBody(out)) as object).filter((n) => n !== 'default').sort();
  writeFileSync(out, `// ${relative(root, out)}: ${basename(vendorBody(out))} through its code cache (src/build/bundle.ts).\n${cachedLoader(out, vendorBody(out), 'exports', names)}\n`);
}

const entries = bundleEntries();
const cliEntry = join(src, 'cli', 'bin.ts');
const cliMain = join(src, 'cli', 'main.ts');
const libraryEntries = entries.filter((e) => e !== cliEntry);
const nsName = (i: number): string => `entry${i}`;
const core = join(root, 'dist', 'core.js');

// The core's code: every library entry as a namespace, and the CLI's runCli, in a CommonJS file
// that dist/core.js loads through V8's code cache (src/util/cached_script.ts). The file exports
// one function, which runs the bundle with the ES modules the core shares (KubeConfig, YAML) and
// dist/core.js's URL (files beside it are found from there, as when the core was the module itself).
const coreBody = join(distDir, 'core.body.cjs');
const coreNames = [...libraryEntries.map((_, i) => nsName(i)), 'runCli'];
await build({
  stdin: {
    contents: [
      ...libraryEntries.map((e, i) => `export * as ${nsName(i)} from ${JSON.stringify(e)};`),
      `export { runCli } from ${JSON.stringify(cliMain)};`,
    ].join('\n'),
    resolveDir: src,
    sourcefile: 'core.ts',
    loader: 'ts',
  },
  ...common,
  format: 'cjs',
  outfile: coreBody,
  sourcemap: true,
  // As tsc's maps: the mappings only (stack traces), not a copy of every source.
  sourcesContent: false,
  // tsx is the plugin loader for TypeScript plugins: it registers itself by URL.
  external: ['tsx', 'tsx/*'],
  define: { 'import.meta.url': '__importMetaUrl' },
  // Strict, as the ES modules it is built from: a CommonJS file is sloppy unless it says so (writes
  // to frozen objects would pass silently, and sloppy calls cost more per call).
  banner: { js: '"use strict";\nmodule.exports = function (__imports, __importMetaUrl) {\nconst module = { exports: {} };' },
  footer: { js: 'return module.exports;\n};' },
  plugins: [withoutOpenTelemetry, injectedByCore],
  logOverride: { 'equals-negative-zero': 'silent' },
});

// dist/core.js: the ES module every entry imports. It loads the shared vendor modules, runs the
// body with them (one instance per process, whoever imports it) and re-exports what it exported.
await build({
  stdin: {
    contents: [
      "import * as kubeConfig from './cluster/kube/kube_config.js';",
      "import * as yaml from 'yaml';",
      "import * as importModule from './util/import_module.js';",
      cachedLoader(core, coreBody, 'exports({ kubeConfig, yaml, importModule }, import.meta.url)', coreNames),
    ].join('\n'),
    resolveDir: src,
    sourcefile: 'core.ts',
    loader: 'ts',
  },
  ...common,
  outfile: core,
  plugins: [fromVendor(core), { name: 'cached-script', setup: (b) => b.onResolve({ filter: /cached_script\.js$/ }, (args) => ({ path: args.path, external: true })) }],
});

// Its code cache, written as a plain node (this process runs under tsx, whose source maps turn the
// cache off) exits after scheduling the default scenario: the cache then holds the scheduling
// cycle's functions too, and a read-only installation has one.
const { NODE_OPTIONS: _tsxOptions, ...plainEnv } = process.env;
const warmUp = `const { runCli } = await import(${JSON.stringify(pathToFileURL(core).href)});\n`
  + `process.exitCode = await runCli(['simulate', ${JSON.stringify(join(root, 'scenarios', 'default.yaml'))}, '-o', 'json']);`;
execFileSync(process.execPath, ['--input-type=module', '-e', warmUp], { env: plainEnv, stdio: ['ignore', 'ignore', 'inherit'] });

/** The import specifier of the core from the file `out` (dist/x.js or dist/y/x.js). */
const coreFrom = (out: string): string => specifierFrom(out, core);
const outOf = (entry: string): string => join(distDir, `${relative(src, entry).slice(0, -'.ts'.length)}.js`);

// Each library entry: its names, read from the built core, re-exported from the core's namespace.
const coreModule = (await import(pathToFileURL(core).href)) as Record<string, Record<string, unknown>>;
libraryEntries.forEach((entry, i) => {
  const out = outOf(entry);
  const names = Object.keys(coreModule[nsName(i)]!).sort();
  const plain = names.filter((n) => n !== 'default');
  const lines = [
    `// ${relative(root, entry)}: re-exported from the one bundle (src/build/bundle.ts).`,
    `import { ${nsName(i)} as ns } from '${coreFrom(out)}';`,
    `export const { ${plain.join(', ')} } = ns;`,
    ...(names.includes('default') ? ['export default ns.default;'] : []),
  ];
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, lines.join('\n') + '\n');
});

// `run`'s first lists, a file of its own that bin.ts imports before the core (vendor packages shared).
const firstLists = join(src, 'cli', 'commands', 'run_first_lists.ts');
await build({ ...common, entryPoints: [firstLists], outfile: outOf(firstLists), plugins: [fromVendor(outOf(firstLists))], banner: requireBanner });

// The row pass's worker thread: a file of its own, which the core starts by URL (beside
// dist/core.js, src/scheduler/parallel/row_pass_pool.ts), bundling only the row arithmetic it runs.
const rowPassWorker = join(src, 'scheduler', 'parallel', 'row_pass_worker.ts');
await build({ ...common, entryPoints: [rowPassWorker], outfile: outOf(rowPassWorker) });

// The CLI: src/cli/bin.ts itself, with its runCli taken from the core instead of a second copy.
await build({
  ...common,
  entryPoints: [cliEntry],
  outfile: outOf(cliEntry),
  plugins: [{
    name: 'cli-from-core',
    setup(b) {
      b.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: coreFrom(outOf(cliEntry)), external: true }));
      b.onResolve({ filter: /^\.\/commands\/run_first_lists\.js$/ }, () => ({ path: specifierFrom(outOf(cliEntry), outOf(firstLists)), external: true }));
    },
  }],
});
