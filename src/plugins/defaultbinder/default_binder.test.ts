// Scenarios of upstream's defaultbinder/default_binder_test.go.
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CycleState } from '../../framework/cycle_state.js';
import { isBindPlugin } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { defaultBinderDefinition } from './index.js';

describe('DefaultBinder', () => {
  it('binds the pod to the node through the client', async () => {
    const handle = newTestHandle();
    const pl = defaultBinderDefinition.factory(undefined, handle, defaultFeatures);
    assert.ok(isBindPlugin(pl));
    const s = await pl.bind(new CycleState(), new PodInfo(makePod('foo', { namespace: 'ns' })), 'foohost.kubernetes.mydomain.com');
    assert.equal(s, null);
    assert.deepEqual(handle.calls.binds, [{ pod: 'ns/foo', node: 'foohost.kubernetes.mydomain.com' }]);
  });

  it('returns an Error status when the API call fails', async () => {
    const base = newTestHandle();
    const handle = newTestHandle({
      overrides: {
        client: () => ({
          ...base.client(),
          bind: async () => {
            throw new Error('binding failed');
          },
        }),
      },
    });
    const pl = defaultBinderDefinition.factory(undefined, handle, defaultFeatures);
    assert.ok(isBindPlugin(pl));
    const s = await pl.bind(new CycleState(), new PodInfo(makePod('foo')), 'n1');
    assert.equal(s?.code, Code.Error);
    assert.equal(s?.message(), 'binding failed');
  });
});
