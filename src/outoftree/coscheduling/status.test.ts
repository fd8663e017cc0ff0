// Cases of scheduler-plugins' podgroup_controller_test.go: the phase and counts one reconcile writes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../plugin.js';
import { makePod } from '../../testing/index.js';
import { reconcilePodGroupStatus } from './status.js';
import { makePodGroup } from './test_helpers.js';
import { PodGroupLabel, type PodGroupPhase, type PodGroupStatus } from './types.js';

const pods = (phases: ('Pending' | 'Running' | 'Succeeded' | 'Failed')[], owner?: string): Pod[] =>
  phases.map((phase, i) => {
    const p = makePod(`p${i}`, { labels: { [PodGroupLabel]: 'pg' } });
    p.status = { phase };
    if (owner !== undefined) p.metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', name: owner, uid: 'u' }];
    return p;
  });

describe('PodGroup status as its controller writes it', () => {
  const cases: { name: string; phase?: PodGroupPhase; minMember: number; pods: Pod[]; want: PodGroupStatus }[] = [
    { name: 'a new group becomes Pending', minMember: 2, pods: pods(['Pending', 'Pending']), want: { phase: 'Pending' } },
    { name: 'Pending stays while members are missing', phase: 'Pending', minMember: 3, pods: pods(['Pending', 'Pending']), want: { phase: 'Pending' } },
    { name: 'Pending to Scheduling with minMember pods, occupied by their owner', phase: 'Pending', minMember: 2, pods: pods(['Pending', 'Pending'], 'job'), want: { phase: 'Scheduling', occupiedBy: 'default/job' } },
    { name: 'Scheduling while fewer than minMember run', phase: 'Scheduling', minMember: 2, pods: pods(['Running', 'Pending']), want: { phase: 'Scheduling', running: 1, succeeded: 0, failed: 0 } },
    { name: 'Running once minMember run or succeeded', phase: 'Scheduling', minMember: 2, pods: pods(['Running', 'Succeeded']), want: { phase: 'Running', running: 1, succeeded: 1, failed: 0 } },
    { name: 'back to Pending when members are gone', phase: 'Running', minMember: 3, pods: pods(['Running', 'Running']), want: { phase: 'Pending', running: 2, succeeded: 0, failed: 0 } },
    { name: 'Failed when a member failed and the rest ended or run', phase: 'Running', minMember: 2, pods: pods(['Running', 'Failed']), want: { phase: 'Failed', running: 1, succeeded: 0, failed: 1 } },
    { name: 'Finished when minMember succeeded', phase: 'Running', minMember: 2, pods: pods(['Succeeded', 'Succeeded']), want: { phase: 'Finished', running: 0, succeeded: 2, failed: 0 } },
    { name: 'a Finished group is left alone', phase: 'Finished', minMember: 2, pods: [], want: { phase: 'Finished' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pg = makePodGroup('pg', { minMember: c.minMember });
      if (c.phase !== undefined) pg.status = { phase: c.phase };
      assert.deepEqual(reconcilePodGroupStatus(pg, c.pods), c.want);
    });
  }
});
