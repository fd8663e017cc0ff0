// The nominator: pods that preemption made room for, by node (backend/queue/nominator.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import { PodInfo } from '../framework/pod_info.js';
import { makePod } from '../testing/builders.js';
import { Nominator } from './nominator.js';

const withNNN = (name: string, nnn?: string): Pod => ({ ...makePod(name), status: nnn ? { nominatedNodeName: nnn } : {} });
const namesOn = (n: Nominator, node: string) => n.nominatedPodsForNode(node).map((p) => p.name).sort();

describe('Nominator', () => {
  it('Override nominates to the given node; Noop (or none) uses the pod status', () => {
    const n = new Nominator();
    n.add(new PodInfo(withNNN('a')), { mode: 'Override', nominatedNodeName: 'n1' });
    n.add(new PodInfo(withNNN('b', 'n2')), null);
    n.add(new PodInfo(withNNN('c', 'n2')), { mode: 'Noop', nominatedNodeName: 'ignored' });
    n.add(new PodInfo(withNNN('d')), null);
    assert.deepEqual(namesOn(n, 'n1'), ['a']);
    assert.deepEqual(namesOn(n, 'n2'), ['b', 'c']);
    assert.equal(n.nominatedNodeOf('default/d'), undefined);
  });

  it('a new nomination replaces the old one; an empty Override clears it', () => {
    const n = new Nominator();
    const a = new PodInfo(withNNN('a'));
    n.add(a, { mode: 'Override', nominatedNodeName: 'n1' });
    n.add(a, { mode: 'Override', nominatedNodeName: 'n2' });
    assert.deepEqual(namesOn(n, 'n1'), []);
    assert.deepEqual(namesOn(n, 'n2'), ['a']);
    n.add(a, { mode: 'Override', nominatedNodeName: '' });
    assert.deepEqual(namesOn(n, 'n2'), []);
    assert.equal(n.nominatedNodeOf(a.uid), undefined);
  });

  it('skips pods that are gone or already bound', () => {
    const bound = new Set(['default/bound']);
    const n = new Nominator((pi) => !bound.has(pi.key));
    n.add(new PodInfo(withNNN('bound')), { mode: 'Override', nominatedNodeName: 'n1' });
    n.add(new PodInfo(withNNN('free')), { mode: 'Override', nominatedNodeName: 'n1' });
    assert.deepEqual(namesOn(n, 'n1'), ['free']);
  });

  it('an update keeps the in-memory nomination only when neither version carries one', () => {
    const n = new Nominator();
    const old = withNNN('a');
    n.add(new PodInfo(old), { mode: 'Override', nominatedNodeName: 'n1' });
    // A status update arriving before the nominatedNodeName patch keeps the reservation.
    const updated = { ...old, metadata: { ...old.metadata, labels: { x: 'y' } } };
    n.update(old, new PodInfo(updated));
    assert.deepEqual(namesOn(n, 'n1'), ['a']);
    assert.deepEqual(n.nominatedPodsForNode('n1')[0]!.pod.metadata.labels, { x: 'y' }, 'the stored pod is the new one');
    // The patch lands: the status now decides.
    const patched = withNNN('a', 'n1');
    n.update(updated, new PodInfo(patched));
    assert.deepEqual(namesOn(n, 'n1'), ['a']);
    // The nomination is removed from the status: it is cleared.
    n.update(patched, new PodInfo(withNNN('a')));
    assert.deepEqual(namesOn(n, 'n1'), []);
  });

  it('delete removes the pod', () => {
    const n = new Nominator();
    const a = new PodInfo(withNNN('a', 'n1'));
    n.add(a, null);
    n.delete(a);
    n.delete(a);
    assert.deepEqual(namesOn(n, 'n1'), []);
  });
});
