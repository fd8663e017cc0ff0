// Tests for event_objects.ts: the typed cast every queueing hint makes of its arguments.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeNode, makePod } from '../testing/builders.js';
import { eventObjectsAs } from './event_objects.js';

describe('eventObjectsAs', () => {
  const pod = makePod('p');
  const node = makeNode('n');
  const { kind: _kind, ...listItem } = pod;
  const cases: { name: string; oldObj: unknown; newObj: unknown; want: { oldObj: unknown; newObj: unknown } | null }[] = [
    { name: 'an update: both objects', oldObj: pod, newObj: pod, want: { oldObj: pod, newObj: pod } },
    { name: 'an add: no old object', oldObj: undefined, newObj: pod, want: { oldObj: null, newObj: pod } },
    { name: 'a delete: no new object', oldObj: pod, newObj: null, want: { oldObj: pod, newObj: null } },
    { name: 'an object without kind, as list items come', oldObj: null, newObj: listItem, want: { oldObj: null, newObj: listItem } },
    { name: 'an object of another kind', oldObj: null, newObj: node, want: null },
    { name: 'a string', oldObj: 'not-a-pod', newObj: pod, want: null },
    { name: 'an array', oldObj: null, newObj: [pod], want: null },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(eventObjectsAs('Pod', c.oldObj, c.newObj), c.want));

  it('types the objects by kind', () => {
    const nodes = eventObjectsAs('Node', null, node);
    assert.equal(nodes?.newObj?.metadata.name, 'n');
  });
});
