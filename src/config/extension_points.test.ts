// The extension points are declared once (api/extension_points.ts): every key of a profile's
// plugins decodes, defaults and is checked, a key outside the table is refused, and messages name
// each point's plugin type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pluginSetNames, pluginTypeOf } from '../api/extension_points.js';
import { configFromObject } from './load.js';
import { fakeRegistry } from './test_helpers.js';

const withPlugins = (plugins: unknown) => ({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', profiles: [{ schedulerName: 'default-scheduler', plugins }] });

function errorOf(plugins: unknown): string {
  try {
    configFromObject(withPlugins(plugins), 'c.yaml', fakeRegistry());
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('the extension points table drives the configuration', () => {
  for (const point of pluginSetNames) {
    it(`${point}: a defaulted profile has its set, and an unknown plugin there is a ${pluginTypeOf(point)} that does not exist`, () => {
      const cfg = configFromObject(withPlugins({}), 'c.yaml', fakeRegistry());
      assert.ok(cfg.profiles[0]!.plugins[point], `${point} missing from the defaulted profile`);
      const msg = errorOf({ [point]: { enabled: [{ name: 'NoSuchPlugin' }] } });
      assert.match(msg, new RegExp(`profiles\\[0\\]\\.plugins\\.${point}\\.enabled\\[0\\]\\.name`));
      assert.match(msg, new RegExp(`${pluginTypeOf(point)} "NoSuchPlugin" does not exist`));
    });
  }

  it('a key outside the table is refused by strict decoding', () => {
    assert.match(errorOf({ preFilterr: { enabled: [] } }), /profiles\[0\]\.plugins\.preFilterr: unknown field "preFilterr"/);
  });
});
