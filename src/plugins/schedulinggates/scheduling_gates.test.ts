// Scenarios of upstream's schedulinggates/scheduling_gates_test.go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ActionType, QueueingHint } from '../../framework/events.js';
import { Code } from '../../framework/status.js';
import { makePod } from '../../testing/builders.js';
import { SchedulingGates } from './index.js';

const gated = (name: string, uid: string, gates: string[]) =>
  makePod(name, { uid, spec: { schedulingGates: gates.map((g) => ({ name: g })) } });

describe('SchedulingGates PreEnqueue', () => {
  const pl = new SchedulingGates();
  const cases = [
    { name: 'pod does not carry scheduling gates', pod: makePod('p'), want: null },
    { name: 'pod with an empty gate list', pod: gated('p', 'u', []), want: null },
    { name: 'pod carries scheduling gates', pod: gated('p', 'u', ['foo', 'bar']), want: 'waiting for scheduling gates: [foo bar]' },
    { name: 'pod carries one scheduling gate', pod: gated('p', 'u', ['example.com/gate']), want: 'waiting for scheduling gates: [example.com/gate]' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = pl.preEnqueue(c.pod);
      if (c.want === null) {
        assert.equal(s, null);
      } else {
        assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
        assert.deepEqual(s?.reasons, [c.want]);
      }
    });
  }
});

describe('SchedulingGates events and hint', () => {
  const pl = new SchedulingGates();
  it('registers the gates-eliminated pod update', () => {
    const evs = pl.eventsToRegister();
    assert.equal(evs.length, 1);
    assert.equal(evs[0]!.event.resource, 'Pod');
    assert.equal(evs[0]!.event.actionType, ActionType.UpdatePodSchedulingGatesEliminated);
  });
  const hint = pl.eventsToRegister()[0]!.queueingHintFn!;
  const target = gated('p', 'uid0', ['foo']);
  const cases = [
    { name: 'backoff on a wrong new object', newObj: 'not-a-pod' as unknown, want: QueueingHint.Queue },
    { name: 'skip updates of other pods', oldObj: gated('q', 'uid1', ['foo']), newObj: gated('q', 'uid1', []), want: QueueingHint.QueueSkip },
    { name: 'queue the update of the target pod', oldObj: target, newObj: gated('p', 'uid0', []), want: QueueingHint.Queue },
  ];
  for (const c of cases) it(c.name, () => assert.equal(hint(target, c.oldObj ?? null, c.newObj), c.want));
});
