// The import graph of src/ held to ../shared/ARCHITECTURE.md: no import cycles between files or
// between modules (type-only and dynamic imports count too), dependencies in the allowed
// direction, and no production code importing test code. What breaks a rule today is listed
// below with the change expected to remove it; an entry that no longer applies fails the test
// too, so the lists only shrink.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';

// Required rather than imported: importing its 9 MB of CommonJS makes Node scan it for named
// exports first, a fifth of a second of the fast suite.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;
const srcDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Cycles between files, each as its files sorted and joined by spaces. */
const knownFileCycles: Record<string, string> = {
};

/** Cycles between modules (the folders under src/), each as its modules sorted and joined by spaces. */
const knownModuleCycles: Record<string, string> = {
};

/** Imports against the rules below, as `from -> to` files. */
const knownViolations: Record<string, string> = {
  // NodeResourcesFit and BalancedAllocation reach DynamicResources' shared DRA manager; it goes once
  // the manager is built per scheduler and handed out through the Handle (issue #23, item 2).
  'plugins/noderesources/index.ts -> plugins/dynamicresources/shared_dra_manager.ts': 'the DRA manager through the Handle',
  'plugins/noderesources/fit.ts -> plugins/dynamicresources/shared_dra_manager.ts': 'the DRA manager through the Handle',
  'plugins/noderesources/balanced_allocation.ts -> plugins/dynamicresources/shared_dra_manager.ts': 'the DRA manager through the Handle',
  'plugins/noderesources/dra_extended_resources.ts -> plugins/dynamicresources/shared_dra_manager.ts': 'the DRA manager through the Handle',
};

/** What a module may import besides itself; unlisted modules are not restricted here. */
const mayImport: Record<string, readonly string[]> = {
  api: [],
  util: [],
  log: [],
  config: ['api'],
  cluster: ['api'],
  apiserver: ['api', 'cluster'],
  // The plugin contract and its runtime know Kubernetes objects only.
  framework: ['api'],
  // Plugins see the cluster only through the contract (framework/) and the DRA library (dra/).
  plugins: ['api', 'framework', 'dra'],
  // k8s.io/dynamic-resource-allocation's part: the structured allocator and the device class resolver.
  dra: ['api', 'framework'],
};
/** Modules the named modules never import (plugins reach the cache and queue through the framework handle). */
const neverImportedBy: Record<string, readonly string[]> = {
  cache: ['plugins'],
  queue: ['plugins'],
  scheduler: ['plugins'],
};
/** util/ and log/ import nothing of ours, so any module may use them. */
const leaves = new Set(['util', 'log']);

/** Code for tests: the shipped test kit (testing/, kube-scheduler-ts/testing) and each folder's test_helpers.ts. */
const isTestOnly = (file: string) => file.startsWith('testing/') || file.endsWith('/test_helpers.ts');
const moduleOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : 'index');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

type Graph = Map<string, Set<string>>;

/** Every file of src/ but the tests, with the files it imports (paths relative to src/). */
function fileGraph(): Graph {
  const graph: Graph = new Map();
  for (const path of sourceFiles(srcDir)) {
    const imports = new Set<string>();
    for (const { fileName } of ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles) {
      if (fileName.startsWith('.')) imports.add(relative(srcDir, resolve(dirname(path), fileName.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(srcDir, path), imports);
  }
  return graph;
}

function moduleGraph(files: Graph): Graph {
  const graph: Graph = new Map();
  for (const [file, imports] of files) {
    if (isTestOnly(file)) continue;
    const from = moduleOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const target of imports) if (moduleOf(target) !== from) edges.add(moduleOf(target));
  }
  return graph;
}

/** The strongly connected components with more than one member (Tarjan), each sorted. */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
}

/** One cycle through a component's first member, as `a -> b -> a`, to say where to cut. */
function cyclePath(graph: Graph, component: readonly string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w) || cameFrom.has(w)) continue;
      cameFrom.set(w, v);
      if (w === start) {
        const path: string[] = [];
        for (let at = v; at !== start; at = cameFrom.get(at)!) path.push(at);
        return [start, ...path.reverse(), start].join(' -> ');
      }
      queue.push(w);
    }
  }
  return component.join(' -> ');
}

/** Fails on what is not listed as known, and on listed entries that no longer occur. */
function assertOnlyKnown(what: string, found: ReadonlyMap<string, string>, known: Record<string, string>): void {
  const unknown = [...found].filter(([key]) => !(key in known)).map(([, detail]) => detail);
  const gone = Object.keys(known).filter((key) => !found.has(key));
  assert.deepEqual(unknown, [], `${what}:\n  ${unknown.join('\n  ')}`);
  assert.deepEqual(gone, [], `${what} listed as known but gone: remove them from the list`);
}

describe('import graph of src/ (ARCHITECTURE.md)', () => {
  const files = fileGraph();

  it('every relative import names a file of src/', () => {
    const missing = [...files].flatMap(([file, imports]) => [...imports].filter((t) => !files.has(t) && !t.endsWith('.test.ts')).map((t) => `${file} -> ${t}`));
    assert.deepEqual(missing, []);
  });

  it('has no cycles between files', () => {
    const found = new Map(cycles(files).map((c) => [c.join(' '), cyclePath(files, c)]));
    assertOnlyKnown('import cycles between files', found, knownFileCycles);
  });

  it('has no cycles between modules', () => {
    const modules = moduleGraph(files);
    const found = new Map(cycles(modules).map((c) => [c.join(' '), cyclePath(modules, c)]));
    assertOnlyKnown('import cycles between modules', found, knownModuleCycles);
  });

  it('points dependencies the allowed way; nothing imports cli/, no plugin imports another plugin\'s folder, and production code never imports test code', () => {
    const found = new Map<string, string>();
    for (const [file, imports] of files) {
      if (isTestOnly(file)) continue;
      const from = moduleOf(file);
      for (const target of imports) {
        const to = moduleOf(target);
        const broken: string[] = [];
        if (isTestOnly(target)) broken.push('production code never imports test code');
        const pluginFolder = (f: string) => (f.startsWith('plugins/') && f.split('/').length > 2 ? f.split('/')[1] : null);
        const fromPlugin = pluginFolder(file);
        const toPlugin = pluginFolder(target);
        if (fromPlugin !== null && toPlugin !== null && fromPlugin !== toPlugin) broken.push("a plugin never imports another plugin's folder");
        if (to !== from && !leaves.has(to)) {
          const allowed = mayImport[from];
          if (allowed && !allowed.includes(to)) broken.push(`${from}/ may import only ${[from, ...allowed].join(', ')}`);
          if (to === 'cli') broken.push('nothing imports cli/');
          if (neverImportedBy[to]?.includes(from)) broken.push(`${from}/ never imports ${to}/`);
        }
        if (broken.length > 0) found.set(`${file} -> ${target}`, `${file} -> ${target}: ${broken.join('; ')}`);
      }
    }
    assertOnlyKnown('imports against ARCHITECTURE.md', found, knownViolations);
  });
});
