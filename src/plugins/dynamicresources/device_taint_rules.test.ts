// DynamicResources with DRADeviceTaintRules on and off: the taint a DeviceTaintRule puts on a
// device keeps it from a claim only with the gate on (scheduler.go's ResourceSlice tracker).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DeviceTaintRule } from '../../api/dra_types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { makeNode } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { defaultDynamicResourcesArgs } from './args.js';
import { pinnedDraFeatures } from './features.js';
import { DynamicResources, ErrReasonCannotAllocate } from './index.js';
import { structuredAllocator } from './allocator_factory.js';
import { deviceClass, driver, nodeSlice, pendingClaim, podWithClaimName } from './test_helpers.js';

const worker = 'worker';

const noScheduleRule: DeviceTaintRule = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceTaintRule',
  metadata: { name: 'broken-dev-0' },
  spec: { deviceSelector: { driver, device: 'dev-0' }, taint: { key: 'broken', effect: 'NoSchedule' } },
};

/** Filter's reasons for a pod whose claim wants the worker's only device, which the rule taints. */
function filterReasons(enableDRADeviceTaintRules: boolean): readonly string[] | null {
  const objects = [deviceClass(), pendingClaim('claim'), nodeSlice(worker, 1), noScheduleRule];
  const handle = newTestHandle({ nodes: [makeNode(worker)], objects, now: 0 });
  const pl = new DynamicResources(handle, {
    args: defaultDynamicResourcesArgs({}),
    features: { ...pinnedDraFeatures, enableDRADeviceTaintRules },
    newAllocator: structuredAllocator(),
  });
  const pod = new PodInfo(podWithClaimName('pod', 'claim'));
  const state = new CycleState();
  assert.equal(pl.preFilter(state, pod)?.status ?? null, null);
  const status = pl.filter(state, pod, handle.snapshot.nodeInfos().get(worker)!);
  return status === null ? null : status.reasons;
}

describe('DynamicResources and DRADeviceTaintRules', () => {
  const cases = [
    { gate: true, want: [ErrReasonCannotAllocate] },
    { gate: false, want: null },
  ];
  for (const tc of cases) {
    it(`DRADeviceTaintRules=${tc.gate}: the rule's NoSchedule taint ${tc.gate ? 'keeps the device from the claim' : 'is ignored'}`, () => {
      assert.deepEqual(filterReasons(tc.gate), tc.want);
    });
  }
});
