// The extension points are declared once (api/extension_points.ts): every key of a profile's
// plugins decodes, defaults and is checked, a key outside the table is refused, and messages name
// each point's plugin type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pluginSetNames, pluginTypeOf } from '../api/extension_points.js';
import { configFromObject } from './load.js';
import { fakeRegistry, pluginsConfigError, withPlugins } from './test_helpers.js';


describe('the extension points table drives the configuration', () => {
  for (const point of pluginSetNames) {
    it(`${point}: a defaulted profile has its set, and an unknown plugin there is a ${pluginTypeOf(point)} that does not exist`, () => {
      const cfg = configFromObject(withPlugins({}), 'c.yaml', fakeRegistry());
      assert.ok(cfg.profiles[0]!.plugins[point], `${point} missing from the defaulted profile`);
      const msg = pluginsConfigError({ [point]: { enabled: [{ name: 'NoSuchPlugin' }] } });
      assert.match(msg, new RegExp(`profiles\\[0\\]\\.plugins\\.${point}\\.enabled\\[0\\]\\.name`));
      assert.match(msg, new RegExp(`${pluginTypeOf(point)} "NoSuchPlugin" does not exist`));
    });
  }

  it('a key outside the table is refused by strict decoding', () => {
    assert.match(pluginsConfigError({ preFilterr: { enabled: [] } }), /profiles\[0\]\.plugins\.preFilterr: unknown field "preFilterr"/);
  });
});
