// The public surface of the package, pinned: the names each entry point of package.json's
// `exports` gives (as the TypeScript compiler sees them, so type-only exports count), compared
// with the committed test/public_api.json. A change to the surface is a change to this file,
// made on purpose: `UPDATE_PUBLIC_API=1 npx tsx --test test/public_api.test.ts` rewrites it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';

// Required rather than imported, as in test/imports.test.ts: Node would scan its CommonJS first.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinnedFile = join(root, 'test', 'public_api.json');

interface PackageJson {
  exports: Record<string, string | { types?: string; default?: string }>;
}

/** The source file behind each entry point's emitted declarations (dist/x.d.ts comes from src/x.ts). */
function entryPoints(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  const entries = new Map<string, string>();
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'string' ? undefined : target.types;
    if (!types) continue;
    assert.match(types, /^\.\/dist\/.*\.d\.ts$/, `exports["${entry}"].types`);
    entries.set(entry, join(root, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')));
  }
  return entries;
}

let computed: Record<string, string[]> | undefined;
let undocumented: string[] = [];

/** Each entry point's exported names, sorted, a type-only name (no runtime value) marked `type `; computed once. */
function surface(): Record<string, string[]> {
  if (computed) return computed;
  const entries = entryPoints();
  const program = ts.createProgram([...entries.values()], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [entry, file] of entries) {
    const source = program.getSourceFile(file);
    assert.ok(source, `${entry}: ${file} is not part of the program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    assert.ok(moduleSymbol, `${entry}: ${file} exports nothing`);
    out[entry] = checker.getExportsOfModule(moduleSymbol).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return target.flags & ts.SymbolFlags.Value ? symbol.name : `type ${symbol.name}`;
    }).sort();
  }
  computed = out;
  undocumented = undocumentedContract(checker, program.getSourceFile(entries.get('./plugin')!)!);
  return out;
}

/** The extension points' interfaces, `Code` and its members, and `QueueingHint` without TSDoc, as `name`. */
function undocumentedContract(checker: TypeScript.TypeChecker, source: TypeScript.SourceFile): string[] {
  const out: string[] = [];
  const documented = (symbol: TypeScript.Symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== '';
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const extensionPoint = symbol.flags & ts.SymbolFlags.Interface && /(Plugin|Extensions)$/.test(symbol.name);
    if (!extensionPoint && symbol.name !== 'Code' && symbol.name !== 'QueueingHint') continue;
    if (!documented(symbol)) out.push(symbol.name);
    if (symbol.flags & ts.SymbolFlags.Enum) {
      for (const member of checker.getExportsOfModule(symbol)) if (!documented(member)) out.push(`${symbol.name}.${member.name}`);
    }
  }
  return out.sort();
}

test('each entry point of package.json exports exactly the pinned names (test/public_api.json)', () => {
  const found = surface();
  if (process.env.UPDATE_PUBLIC_API) writeFileSync(pinnedFile, `${JSON.stringify(found, null, 2)}\n`);
  const pinned = JSON.parse(readFileSync(pinnedFile, 'utf8')) as Record<string, string[]>;
  for (const entry of new Set([...Object.keys(found), ...Object.keys(pinned)])) {
    const now = new Set(found[entry] ?? []);
    const was = new Set(pinned[entry] ?? []);
    const added = [...now].filter((n) => !was.has(n));
    const removed = [...was].filter((n) => !now.has(n));
    assert.deepEqual({ added, removed }, { added: [], removed: [] }, `entry point "${entry}" changed its surface: update test/public_api.json on purpose`);
  }
});

test('the runtime internals stay out of every entry point', () => {
  const found = surface();
  for (const [entry, names] of Object.entries(found)) {
    for (const internal of ['Framework', 'ProfileConfig', 'SchedulingQueue', 'Cache', 'Snapshot']) {
      assert.ok(!names.includes(internal) && !names.includes(`type ${internal}`), `${entry} exports ${internal}`);
    }
  }
});

test('the plugin contract entry point is a part of the root entry point', () => {
  const found = surface();
  const missing = found['./plugin']!.filter((n) => !found['.']!.includes(n));
  assert.deepEqual(missing, []);
});

test('every extension point, every Code and every QueueingHint says what it means (TSDoc)', () => {
  surface();
  assert.deepEqual(undocumented, []);
});
