// Cases of scheduler-plugins' podgroup_controller_test.go: the phase and counts one reconcile writes
// (Scheduling is never the controller's own: it only carries a group on from there).
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
  const cases: { name: string; phase?: PodGroupPhase; minMember: number; pods: Pod[]; status?: PodGroupStatus; created?: string; want: PodGroupStatus }[] = [
    { name: 'a new group becomes Pending', minMember: 2, pods: pods(['Pending', 'Pending']), want: { phase: 'Pending' } },
    { name: 'Pending stays while members are missing', phase: 'Pending', minMember: 3, pods: pods(['Pending', 'Pending']), want: { phase: 'Pending' } },
    { name: 'Pending to PreScheduling with minMember pods, occupied by their owner', phase: 'Pending', minMember: 2, pods: pods(['Pending', 'Pending'], 'job'), want: { phase: 'PreScheduling', occupiedBy: 'default/job' } },
    { name: 'PreScheduling stays PreScheduling while members run (only Scheduling leads on)', phase: 'PreScheduling', minMember: 2, pods: pods(['Running', 'Running']), want: { phase: 'PreScheduling', running: 2, succeeded: 0, failed: 0 } },
    { name: 'Scheduling stays while fewer than minMember are scheduled', phase: 'Scheduling', minMember: 2, pods: pods(['Running', 'Pending']), status: { scheduled: 1 }, want: { phase: 'Scheduling', scheduled: 1, running: 1, succeeded: 0, failed: 0 } },
    { name: 'Scheduling to Scheduled to Running in one reconcile once minMember are scheduled and run', phase: 'Scheduling', minMember: 2, pods: pods(['Running', 'Succeeded']), status: { scheduled: 2 }, want: { phase: 'Running', scheduled: 2, running: 1, succeeded: 1, failed: 0 } },
    { name: 'Scheduled while members have not started', phase: 'Scheduling', minMember: 2, pods: pods(['Pending', 'Pending']), status: { scheduled: 2 }, want: { phase: 'Scheduled', scheduled: 2, running: 0, succeeded: 0, failed: 0 } },
    { name: 'back to Pending when every member is gone', phase: 'Running', minMember: 3, pods: [], want: { phase: 'Pending', running: 0, succeeded: 0, failed: 0 } },
    { name: 'Running stays Running with fewer members than minMember', phase: 'Running', minMember: 3, pods: pods(['Running', 'Running']), want: { phase: 'Running', running: 2, succeeded: 0, failed: 0 } },
    { name: 'Failed when a member failed and the rest ended or run', phase: 'Running', minMember: 2, pods: pods(['Running', 'Failed']), want: { phase: 'Failed', running: 1, succeeded: 0, failed: 1 } },
    { name: 'Finished when minMember succeeded', phase: 'Running', minMember: 2, pods: pods(['Succeeded', 'Succeeded']), want: { phase: 'Finished', running: 0, succeeded: 2, failed: 0 } },
    { name: 'a Finished group is left alone', phase: 'Finished', minMember: 2, pods: [], want: { phase: 'Finished' } },
    { name: 'a group scheduled over 48 hours after its creation with nothing running is left alone', phase: 'Scheduled', minMember: 2, pods: pods(['Succeeded', 'Succeeded']),
      status: { scheduled: 2, running: 0, scheduleStartTime: '2026-01-03T00:00:01Z' }, created: '2026-01-01T00:00:00Z', want: { phase: 'Scheduled', scheduled: 2, running: 0, scheduleStartTime: '2026-01-03T00:00:01Z' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pg = makePodGroup('pg', { minMember: c.minMember });
      if (c.phase !== undefined || c.status !== undefined) pg.status = { ...c.status, ...(c.phase !== undefined ? { phase: c.phase } : {}) };
      if (c.created !== undefined) Object.assign(pg, { metadata: { ...pg.metadata, creationTimestamp: c.created } });
      assert.deepEqual(reconcilePodGroupStatus(pg, c.pods), c.want);
    });
  }
});
