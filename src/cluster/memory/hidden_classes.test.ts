// The embedded cluster's stored pods share V8's hidden classes: a copy given a key by a spread
// (`{ ...spec, tolerations }`) gets a class of its own per pod, and every later read of it misses
// (util/shallow_copy.ts). Asked of V8 itself (%HaveSameMap), so a spread coming back fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import type { Pod } from '../../api/types.js';
import { makeNode } from '../../testing/builders.js';
import { FakeClock } from '../../util/clock.js';
import { withNodeName } from '../../scheduler/schedule_one.js';
import { admitPod } from './admission.js';
import { MemoryCluster } from './store.js';

setFlagsFromString('--allow-natives-syntax');
const sameClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;

/** How many distinct hidden classes the objects have. */
function classes(objects: readonly unknown[]): number {
  const seen: unknown[] = [];
  for (const o of objects) if (!seen.some((s) => sameClass(s, o))) seen.push(o);
  return seen.length;
}

const pod = (i: number): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `p${i}`, namespace: 'default', labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'pause', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m' }, limits: { cpu: '100m' } } }] },
});

describe('stored pods share hidden classes', () => {
  it('pending, assumed and bound versions of 60 pods: one class per part', async () => {
    const c = new MemoryCluster({ clock: new FakeClock(1_000), admitPod });
    c.create(makeNode('n1'));
    // Past the spread sites' warm-up (about 8 calls), where the per-object classes began.
    const pending = Array.from({ length: 60 }, (_, i) => c.create(pod(i)));
    const assumed = pending.map((p) => withNodeName(p.spec, 'n1'));
    for (const p of pending) await c.bind(p, 'n1');
    const bound = pending.map((p) => c.getPod('default', p.metadata.name!)!);
    assert.equal(classes(pending.map((p) => p.spec)), 1, 'pending specs');
    assert.equal(classes(pending.map((p) => p.metadata)), 1, 'pending metadata');
    assert.equal(classes(assumed), 1, 'assumed specs');
    assert.equal(classes(bound.map((p) => p.spec)), 1, 'bound specs');
    assert.equal(classes(bound.map((p) => p.status)), 1, 'bound statuses');
  });
});
