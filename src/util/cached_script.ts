// Loads a CommonJS file through V8's code cache (the public vm.Script `cachedData` API, as the
// v8-compile-cache package does for require()): dist/core.js loads the bundle's body this way, so
// Node deserializes its compiled functions instead of parsing and compiling 2.6 MB at each start
// (docs/performance.md). The cache sits beside the file, headed by the key it was made for (the
// file's hash, fixed at build time, and the Node release and platform); a stale, rejected,
// unreadable or unwritable cache only costs the compilation it would have saved.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The header of a cache made for code hashed `hash` by this Node release on this platform. */
function cacheKey(hash: string): string {
  return `${hash} ${process.version} ${process.arch} ${process.platform}\n`;
}

/** The cached code after its header, when the header is `key`; undefined when missing or stale. */
function readCodeCache(path: string, key: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  const end = file.indexOf(0x0a);
  return end >= 0 && file.toString('latin1', 0, end + 1) === key ? file.subarray(end + 1) : undefined;
}

/** Writes the cache whole or not at all (a concurrent start reads either the old file or the new). */
function writeCodeCache(path: string, key: string, data: Buffer): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(key, 'latin1'), data]));
    renameSync(tmp, path);
  } catch {
    // A read-only installation runs uncached.
  }
}

/** A file's text; ASCII (the built core's body) read as one-byte text, without decoding UTF-8. */
function readSource(path: string): string {
  const bytes = readFileSync(path);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/** The hash a cache of `source` is keyed by (computed once, when the file is built). */
export function scriptHash(source: string): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 32);
}

export interface CachedScriptOptions {
  /** A CommonJS file (`.cjs`): what it leaves in `module.exports` is returned. */
  readonly file: URL;
  /** Its `scriptHash`, fixed when it was built: a cache made for other code is never used. */
  readonly hash: string;
  /** Its code cache file. */
  readonly cacheFile: URL;
  /** Runs `write` when the process ends (the default); tests inject their own moment. */
  readonly atExit?: (write: () => void) => void;
  /** The process's Node and V8 options (by default its execArgv and NODE_OPTIONS); tests inject theirs. */
  readonly nodeOptions?: readonly string[];
}

const processNodeOptions = (): string[] => [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter(Boolean);

const atProcessExit = (write: () => void): void => {
  process.once('exit', write);
};

/**
 * Runs the file once and `start` with its `module.exports`. When no cache fit, one is written as the
 * process exits: it then holds every function the process compiled, not only the eagerly compiled
 * ones (`npm run build` exercises the core and the vendor packages before it exits, dist/core.body.v8cache
 * and dist/vendor/*.body.v8cache). A cache V8 rejects is replaced only by a process started without
 * Node options. Under `--enable-source-maps` the file is require()d instead: Node
 * maps stack traces only of the modules its own loaders compiled.
 */
export function requireCached<T>(options: CachedScriptOptions, start: (exports: unknown) => T): T {
  const path = fileURLToPath(options.file);
  if (process.sourceMapsEnabled) return start(createRequire(path)(path));
  const cachePath = fileURLToPath(options.cacheFile);
  const key = cacheKey(options.hash);
  const cachedData = readCodeCache(cachePath, key);
  // Node's CommonJS wrapper, so the file runs as require() would run it.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readSource(path)}\n})`, {
    filename: path,
    // Node's callback for import() does not survive the cache: the file may not call it.
    cachedData,
  });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as unknown };
  wrapper(module.exports, createRequire(path), module, path, dirname(path));
  // V8 rejects a cache made under other V8 flags (--max-semi-space-size...): a process started with
  // options keeps the build's cache for the plain starts instead of replacing it by its own.
  const rejected = script.cachedDataRejected === true && (options.nodeOptions ?? processNodeOptions()).length === 0;
  if (cachedData === undefined || rejected) {
    (options.atExit ?? atProcessExit)(() => writeCodeCache(cachePath, key, script.createCachedData()));
  }
  return start(module.exports);
}
