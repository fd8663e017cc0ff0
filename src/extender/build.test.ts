// buildExtenders (pkg/scheduler/scheduler.go buildExtenders): ignorable extenders go last, and
// the managed resources the scheduler must ignore are collected.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildExtenders } from './build.js';
import type { ExtenderTransport } from './transport.js';

const unused: ExtenderTransport = () => Promise.reject(new Error('no request expected'));

describe('buildExtenders', () => {
  it('puts ignorable extenders after the others, keeping the configured order within each group', () => {
    const { extenders } = buildExtenders(
      [
        { urlPrefix: 'http://a', ignorable: true },
        { urlPrefix: 'http://b' },
        { urlPrefix: 'http://c', ignorable: true },
        { urlPrefix: 'http://d', ignorable: false },
      ],
      unused,
    );
    assert.deepEqual(extenders.map((e) => e.name()), ['http://b', 'http://d', 'http://a', 'http://c']);
  });

  it('collects the managed resources marked ignoredByScheduler, across extenders', () => {
    const { ignoredResources } = buildExtenders(
      [
        { urlPrefix: 'http://a', managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }, { name: 'example.com/fpga' }] },
        { urlPrefix: 'http://b', managedResources: [{ name: 'example.com/nic', ignoredByScheduler: true }] },
      ],
      unused,
    );
    assert.deepEqual(ignoredResources, ['example.com/gpu', 'example.com/nic']);
  });

  it('builds nothing from no configuration', () => {
    assert.deepEqual(buildExtenders([]), { extenders: [], ignoredResources: [] });
  });

  it('fails when an extender cannot be set up', () => {
    assert.throws(() => buildExtenders([{ urlPrefix: 'http://a', httpTimeout: 'soon' }]), /extender http:\/\/a: httpTimeout: /);
  });
});
