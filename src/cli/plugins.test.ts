// `--plugins`: modules' plugin definitions join the in-tree registry, JavaScript or TypeScript;
// a module that cannot serve is a usage error naming it. The built CLI loading a TypeScript
// plugin in a process of its own is in plugins.e2e.test.ts.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inTreeRegistry } from '../plugins/registry.js';
import { UsageError } from './io.js';
import { runCli } from './main.js';
import { registryWithPlugins } from './plugins.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'kst-plugins-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function pluginModule(file: string, text: string): string {
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

// Score-only plugins need nothing from the SDK, so these modules import nothing.
const scorePlugin = (name: string) => `{ name: '${name}', factory: () => ({ name: '${name}', score: () => 0 }) }`;

describe('registryWithPlugins', () => {
  it('adds the shipped Coscheduling to the in-tree plugins without modules', async () => {
    const registry = await registryWithPlugins([]);
    assert.deepEqual(registry.names(), [...inTreeRegistry().names(), 'Coscheduling']);
    assert.deepEqual(registry.get('Coscheduling')?.watches, ['PodGroup.scheduling.x-k8s.io']);
  });

  it('a module defining Coscheduling replaces the shipped one', async () => {
    const own = pluginModule('own-cosched.mjs', `export const plugins = [${scorePlugin('Coscheduling')}];\n`);
    const registry = await registryWithPlugins([own]);
    assert.equal(registry.get('Coscheduling')?.watches, undefined);
  });

  it('adds the plugins of each module, exported as `plugins` or as the default export', async () => {
    const named = pluginModule('named.mjs', `export const plugins = [${scorePlugin('First')}, ${scorePlugin('Second')}];\n`);
    const byDefault = pluginModule('default.js', `export default [${scorePlugin('Third')}];\n`);
    const registry = await registryWithPlugins([named, byDefault]);
    assert.deepEqual(registry.names().filter((n) => !inTreeRegistry().has(n)).sort(), ['Coscheduling', 'First', 'Second', 'Third']);
  });

  it('compiles TypeScript modules on load', async () => {
    const typed = (name: string) => `interface Args { readonly weight: number }
const args: Args = { weight: 1 };
export const plugins = [{ name: '${name}', factory: (): { name: string; score(): number } => ({ name: '${name}', score: () => args.weight }) }];
`;
    const registry = await registryWithPlugins([pluginModule('typed.ts', typed('Typed')), pluginModule('typed.mts', typed('TypedMts'))]);
    assert.ok(registry.has('Typed') && registry.has('TypedMts'));
  });

  const rejected: { name: string; file: string; text: string; want: RegExp }[] = [
    { name: 'a module without plugins', file: 'empty.mjs', text: 'export const other = 1;\n', want: /must export `plugins`, an array of \{ name, factory, \.\.\. \} plugin definitions/ },
    { name: 'definitions without a factory', file: 'nofactory.mjs', text: "export const plugins = [{ name: 'X' }];\n", want: /must export `plugins`/ },
    { name: 'a plugin named as an in-tree one', file: 'clash.mjs', text: `export const plugins = [${scorePlugin('NodeAffinity')}];\n`, want: /a plugin named NodeAffinity already exists/ },
    { name: 'a module that does not compile', file: 'broken.ts', text: 'export const plugins = [;\n', want: /--plugins .*broken\.ts: / },
  ];
  for (const c of rejected) {
    it(`rejects ${c.name}, naming the module`, async () => {
      const path = pluginModule(c.file, c.text);
      await assert.rejects(registryWithPlugins([path]), (err: Error) => {
        assert.ok(err instanceof UsageError, String(err));
        assert.ok(err.message.startsWith(`--plugins ${path}: `), err.message);
        assert.match(err.message, c.want);
        return true;
      });
    });
  }

  it('rejects a module that is not there', async () => {
    await assert.rejects(registryWithPlugins([join(dir, 'missing.mjs')]), /--plugins .*missing\.mjs: Cannot find module/);
  });
});

describe('--plugins on the command line', { skip: existsSync(join(root, 'dist/index.js')) ? false : 'the example imports the built package (npm ci builds it)' }, () => {
  it('simulate with the TypeScript example keeps pods out of the avoided zone, which they would prefer', async () => {
    const scenario = join(root, 'test/fixtures/scenarios/cli/zones.yaml');
    const nodesOf = async (...extra: string[]) => {
      let out = '';
      let err = '';
      const code = await runCli(['simulate', scenario, '--output', 'json', ...extra], { stdout: (t) => (out += t), stderr: (t) => (err += t) });
      assert.equal(code, 0, err);
      return (JSON.parse(out) as { pods: { node: string }[] }).pods.map((p) => p.node);
    };
    assert.deepEqual(await nodesOf(), ['b', 'b']);
    assert.deepEqual(await nodesOf('--plugins', join(root, 'examples/avoid-zone.ts'), '--config', join(root, 'examples/avoid-zone-config.yaml')), ['a', 'a']);
  });

  it('a configuration naming a plugin that no module brought is rejected with the field path', async () => {
    let err = '';
    const code = await runCli(['simulate', join(root, 'test/fixtures/scenarios/cli/zones.yaml'), '--config', join(root, 'examples/avoid-zone-config.yaml')], { stdout: () => undefined, stderr: (t) => (err += t) });
    assert.equal(code, 2);
    assert.match(err, /avoid-zone-config\.yaml: profiles\[0\]\.plugins\.multiPoint\.enabled\[0\]\.name: Invalid value: "AvoidZone": plugin "AvoidZone" does not exist/);
  });
});
