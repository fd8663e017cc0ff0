// DefaultPreemption's PreEnqueue for pod-group members: which group's preemption holds a member
// back (default_preemption.go PreEnqueue: the PodGroup's, or with CompositePodGroup its root's).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CompositePodGroup, PodGroup } from '../../api/scheduling.js';
import { defaultFeatures } from '../../framework/features.js';
import { makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { podGroupStatesOf } from '../../testing/pod_group_states.js';
import { defaultDefaultPreemptionArgs } from './args.js';
import { DefaultPreemption } from './default_preemption.js';

const cpg = (name: string, parent?: string): CompositePodGroup => ({
  kind: 'CompositePodGroup', metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { workloadRef: { workloadName: 'w', templateName: name }, schedulingPolicy: { basic: {} }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
});
const pg = (name: string, parent?: string): PodGroup => ({
  kind: 'PodGroup', metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { schedulingPolicy: { basic: {} }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
});
const member = makePod('m', { uid: 'm', spec: { schedulingGroup: { podGroupName: 'leaf' } } });

function preEnqueue(gate: boolean, composites: CompositePodGroup[], groups: PodGroup[], running: string): string | null {
  const states = podGroupStatesOf(composites, groups, [member], { compositePodGroup: gate });
  const features = { ...defaultFeatures, enableGenericWorkload: true, enableCompositePodGroup: gate };
  const pl = new DefaultPreemption(defaultDefaultPreemptionArgs({}), { ...newTestHandle(), podGroups: () => states }, features);
  // Which preemptor runs is the executor's business; here only the UID asked about matters.
  pl.executor.isRunningPreemption = (uid) => uid === running;
  return pl.preEnqueue(member)?.message() ?? null;
}

describe('DefaultPreemption PreEnqueue for a pod-group member', () => {
  const held = 'waiting for the preemption for this pod group to be finished';
  const cases = [
    { name: 'its PodGroup preempting (no gate)', gate: false, composites: [], groups: [pg('leaf', 'root')], running: 'uid-leaf', want: held },
    { name: 'its root composite preempting: not seen without the gate', gate: false, composites: [cpg('root')], groups: [pg('leaf', 'root')], running: 'uid-root', want: null },
    { name: 'its root composite preempting (CompositePodGroup on)', gate: true, composites: [cpg('root'), cpg('mid', 'root')], groups: [pg('leaf', 'mid')], running: 'uid-root', want: held },
    { name: 'its own PodGroup under a composite is not the preemptor', gate: true, composites: [cpg('root')], groups: [pg('leaf', 'root')], running: 'uid-leaf', want: null },
    { name: 'a tree that cannot be resolved is not held', gate: true, composites: [], groups: [pg('leaf', 'root')], running: 'uid-root', want: null },
    { name: 'a PodGroup root preempting (CompositePodGroup on)', gate: true, composites: [], groups: [pg('leaf')], running: 'uid-leaf', want: held },
  ];
  for (const c of cases) it(c.name, () => assert.equal(preEnqueue(c.gate, c.composites, c.groups, c.running), c.want));
});
