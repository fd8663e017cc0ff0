// The in-tree registry against the configuration's list of upstream's in-tree plugins.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatedInTreePluginNames, InTreePluginNames } from '../config/default_plugins.js';
import { inTreeRegistry, notYetAvailablePlugins } from './registry.js';

describe('the in-tree registry', () => {
  it('has every upstream in-tree plugin, or lists it as not yet available', () => {
    const registry = inTreeRegistry();
    for (const name of InTreePluginNames) assert.ok(registry.has(name) || notYetAvailablePlugins.has(name), name);
  });

  it('lists as not yet available only gated upstream plugins it does not have', () => {
    const registry = inTreeRegistry();
    for (const name of notYetAvailablePlugins) assert.ok(GatedInTreePluginNames.includes(name) && !registry.has(name), name);
  });
});
