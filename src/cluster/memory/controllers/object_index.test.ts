import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/types.js';
import { ObjectIndex } from './object_index.js';

type Labelled = KubeObject & { metadata: { name: string; namespace: string; labels?: Record<string, string> } };
const obj = (name: string, owner?: string): Labelled => ({ apiVersion: 'v1', kind: 'X', metadata: { name, namespace: 'ns', ...(owner ? { labels: { owner } } : {}) } });

describe('ObjectIndex', () => {
  it('files objects under their key, moves them when it changes, forgets them when gone or unkeyed', () => {
    const index = new ObjectIndex<Labelled>((o) => o.metadata.labels?.owner);
    const steps: { op: [Labelled, boolean]; want: Record<string, string[]> }[] = [
      { op: [obj('a', 'j1'), true], want: { j1: ['a'], j2: [] } },
      { op: [obj('b', 'j1'), true], want: { j1: ['a', 'b'], j2: [] } },
      { op: [obj('a', 'j2'), true], want: { j1: ['b'], j2: ['a'] } },
      { op: [obj('b'), true], want: { j1: [], j2: ['a'] } },
      { op: [obj('a', 'j2'), false], want: { j1: [], j2: [] } },
      { op: [obj('c', 'j2'), true], want: { j1: [], j2: ['c'] } },
    ];
    for (const [i, s] of steps.entries()) {
      index.observe(...s.op);
      for (const [key, names] of Object.entries(s.want)) assert.deepEqual(index.get(key).map((o) => o.metadata.name), names, `step ${i} key ${key}`);
    }
  });
});
