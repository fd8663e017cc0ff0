// The PodGroupInitiallyScheduled condition: what each verdict writes, and when nothing is written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Condition, PodGroup } from '../api/scheduling.js';
import { Code, Status } from '../framework/status.js';
import { initiallyScheduledCondition, withCondition } from './pod_group_status.js';

const group = (conditions?: Condition[]): PodGroup =>
  ({ metadata: { name: 'g', namespace: 'default', generation: 3 }, spec: { schedulingPolicy: { gang: { minCount: 2 } } }, ...(conditions ? { status: { conditions } } : {}) });
const t0 = '2024-01-01T00:00:00Z';
const t1 = '2024-01-01T00:01:00Z';

describe('PodGroupInitiallyScheduled', () => {
  it('reads each verdict as upstream writes it', () => {
    assert.deepEqual(initiallyScheduledCondition(null, t0), { type: 'PodGroupInitiallyScheduled', status: 'True', reason: 'Scheduled', message: '', lastTransitionTime: t0 });
    const rejected = new Status(Code.Unschedulable, ['pod group is unschedulable', 'minCount (2) cannot be satisfied: 1 scheduled, 0 remaining']);
    assert.deepEqual(initiallyScheduledCondition(rejected, t0), {
      type: 'PodGroupInitiallyScheduled', status: 'False', reason: 'Unschedulable', message: 'pod group is unschedulable, minCount (2) cannot be satisfied: 1 scheduled, 0 remaining', lastTransitionTime: t0,
    });
    assert.equal(initiallyScheduledCondition(Status.error('boom'), t0).reason, 'SchedulerError');
  });

  it('sets the condition with the generation observed', () => {
    assert.deepEqual(withCondition(group(), initiallyScheduledCondition(null, t0))?.conditions, [{ ...initiallyScheduledCondition(null, t0), observedGeneration: 3 }]);
  });

  it('keeps a True condition against a later failure', () => {
    const scheduled = { ...initiallyScheduledCondition(null, t0), observedGeneration: 3 };
    assert.equal(withCondition(group([scheduled]), initiallyScheduledCondition(new Status(Code.Unschedulable, ['x']), t1)), null);
  });

  it('writes nothing unchanged, and keeps the transition time while the status holds', () => {
    const failed = { ...initiallyScheduledCondition(new Status(Code.Unschedulable, ['a']), t0), observedGeneration: 3 };
    assert.equal(withCondition(group([failed]), initiallyScheduledCondition(new Status(Code.Unschedulable, ['a']), t1)), null);
    const next = withCondition(group([failed]), initiallyScheduledCondition(new Status(Code.Unschedulable, ['b']), t1));
    assert.deepEqual(next?.conditions?.[0], { ...failed, message: 'b' });
    const scheduled = withCondition(group([failed]), initiallyScheduledCondition(null, t1));
    assert.equal(scheduled?.conditions?.[0]?.lastTransitionTime, t1);
  });
});
