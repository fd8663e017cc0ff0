import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requireCached, scriptHash } from './cached_script.js';

const dir = mkdtempSync(join(tmpdir(), 'kst-cached-script-'));
after(() => {
  process.setSourceMapsEnabled(true);
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the cache at once instead of when the process exits. */
const now = (write: () => void): void => write();

/** A CommonJS file exporting a function of one argument, and its options. */
function script(name: string, source: string) {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, source);
  const cacheFile = join(dir, `${name}.v8cache`);
  return { file, cacheFile, options: { file: pathToFileURL(file), hash: scriptHash(source), cacheFile: pathToFileURL(cacheFile), atExit: now, nodeOptions: [] } };
}

const run = (options: Parameters<typeof requireCached>[0]): unknown => requireCached(options, (exports) => (exports as (x: number) => unknown)(20));

describe('requireCached', () => {
  // tsx turns source maps on (again when it loads a module for another file of the shard), under
  // which requireCached require()s the file instead (covered last): off before each test here.
  beforeEach(() => process.setSourceMapsEnabled(false));
  it('runs the file, then writes a cache headed by its hash and the Node release when the process ends', () => {
    const s = script('first', 'module.exports = (x) => x * 2 + 2;');
    let write: (() => void) | undefined;
    assert.equal(run({ ...s.options, atExit: (w) => (write = w) }), 42);
    assert.equal(existsSync(s.cacheFile), false);
    write?.();
    const header = readFileSync(s.cacheFile, 'latin1').split('\n')[0];
    assert.equal(header, `${s.options.hash} ${process.version} ${process.arch} ${process.platform}`);
  });

  it('uses a cache that fits and leaves it as it is', () => {
    const s = script('reuse', 'module.exports = (x) => [x, require("node:path").basename(__filename)];');
    assert.deepEqual(run(s.options), [20, 'reuse.cjs']);
    const made = readFileSync(s.cacheFile);
    assert.deepEqual(run(s.options), [20, 'reuse.cjs']);
    assert.deepEqual(readFileSync(s.cacheFile), made);
  });

  it('ignores a cache made for other code of the same length, and replaces it', () => {
    const a = script('edited', 'module.exports = (x) => x + 1;');
    assert.equal(run(a.options), 21);
    const b = script('edited', 'module.exports = (x) => x - 1;');
    assert.equal(run(b.options), 19);
    assert.ok(readFileSync(b.cacheFile, 'latin1').startsWith(b.options.hash));
  });

  it('replaces a cache V8 rejects', () => {
    const s = script('garbage', 'module.exports = (x) => x * 3;');
    const header = `${s.options.hash} ${process.version} ${process.arch} ${process.platform}\n`;
    writeFileSync(s.cacheFile, Buffer.concat([Buffer.from(header, 'latin1'), Buffer.alloc(256, 7)]));
    assert.equal(run(s.options), 60);
    assert.notDeepEqual(readFileSync(s.cacheFile).subarray(header.length), Buffer.alloc(256, 7));
  });

  it('keeps a cache V8 rejects when the process was started with Node options (another V8 flag rejects the build\'s cache)', () => {
    const s = script('flagged', 'module.exports = (x) => x * 4;');
    const header = `${s.options.hash} ${process.version} ${process.arch} ${process.platform}\n`;
    const rejectedCache = Buffer.concat([Buffer.from(header, 'latin1'), Buffer.alloc(256, 7)]);
    writeFileSync(s.cacheFile, rejectedCache);
    assert.equal(run({ ...s.options, nodeOptions: ['--max-semi-space-size=32'] }), 80);
    assert.deepEqual(readFileSync(s.cacheFile), rejectedCache);
  });

  it('runs without a cache where none can be written', { skip: process.getuid?.() === 0 ? 'root writes anywhere' : false }, () => {
    const ro = mkdtempSync(join(dir, 'ro-'));
    const file = join(ro, 's.cjs');
    writeFileSync(file, 'module.exports = (x) => x;');
    chmodSync(ro, 0o500);
    const cacheFile = join(ro, 's.v8cache');
    assert.equal(run({ file: pathToFileURL(file), hash: 'h', cacheFile: pathToFileURL(cacheFile), atExit: now }), 20);
    assert.equal(existsSync(cacheFile), false);
  });

  it('runs without a cache where its folder is missing', () => {
    const s = script('nofolder', 'module.exports = (x) => x + 5;');
    const cacheFile = pathToFileURL(join(dir, 'missing', 'c.v8cache'));
    assert.equal(run({ ...s.options, cacheFile }), 25);
    assert.equal(existsSync(cacheFile), false);
  });

  it('require()s the file under --enable-source-maps, without a cache', () => {
    const s = script('mapped', 'module.exports = (x) => x + 100;');
    process.setSourceMapsEnabled(true);
    try {
      assert.equal(run(s.options), 120);
    } finally {
      process.setSourceMapsEnabled(false);
    }
    assert.equal(existsSync(s.cacheFile), false);
  });
});
