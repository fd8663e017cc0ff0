// The interim DynamicResources guard: pods with resource claims are rejected in PreFilter, others skip it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makePod } from '../../testing/builders.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../registry.js';
import { DynamicResources, dynamicResourcesDefinition, ErrReasonNotSupported } from './index.js';

type PodResourceClaim = NonNullable<Pod['spec']['resourceClaims']>[number];

const withClaims = (claims: PodResourceClaim[]): Pod => makePod('p', { spec: { resourceClaims: claims } });

describe('DynamicResources guard PreFilter', () => {
  const pl = new DynamicResources();
  const cases: { name: string; pod: Pod; want: { code: Code; reasons: string[] } }[] = [
    { name: 'a pod without claims skips the plugin', pod: makePod('p'), want: { code: Code.Skip, reasons: [] } },
    { name: 'a pod with an empty claim list skips the plugin', pod: withClaims([]), want: { code: Code.Skip, reasons: [] } },
    {
      name: 'a pod naming a claim is unschedulable and unresolvable',
      pod: withClaims([{ name: 'gpu', resourceClaimName: 'gpu-claim' }]),
      want: { code: Code.UnschedulableAndUnresolvable, reasons: [ErrReasonNotSupported] },
    },
    {
      name: 'a pod with a claim template, in the v1.31+ field layout, is unschedulable and unresolvable',
      pod: withClaims([{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' } as PodResourceClaim]),
      want: { code: Code.UnschedulableAndUnresolvable, reasons: [ErrReasonNotSupported] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const status = pl.preFilter(new CycleState(), new PodInfo(c.pod))?.status;
      assert.equal(status?.code, c.want.code);
      assert.deepEqual(status?.reasons ?? [], c.want.reasons);
    });
  }

  it('registers no event: nothing in the cluster can make such a pod schedulable', () => {
    assert.deepEqual(pl.eventsToRegister(), []);
  });

  it('is what the in-tree registry builds for DynamicResources, which is no longer reported missing', () => {
    assert.equal(inTreeRegistry().get('DynamicResources'), dynamicResourcesDefinition);
    assert.equal(notYetAvailablePlugins.has('DynamicResources'), false);
  });
});
