// Scenarios of upstream's defaulttolerationseconds/admission_test.go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Toleration } from '../types.js';
import { makePod } from '../../testing/builders.js';
import { admitPod } from '../../cluster/memory/admission.js';
import { withDefaultTolerations } from './default_toleration_seconds.js';

const notReady: Toleration = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable: Toleration = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

describe('DefaultTolerationSeconds admission', () => {
  const cases: { name: string; given: Toleration[] | undefined; want: Toleration[] }[] = [
    { name: 'a pod without tolerations gets both', given: undefined, want: [notReady, unreachable] },
    {
      name: 'other tolerations are kept, both are added after them',
      given: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }],
      want: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }, notReady, unreachable],
    },
    {
      name: 'a pod tolerating not-ready for 700s only gets unreachable',
      given: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 700 }],
      want: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 700 }, unreachable],
    },
    {
      name: 'a toleration of every taint (empty key and effect) covers both',
      given: [{ operator: 'Exists' }],
      want: [{ operator: 'Exists' }],
    },
    {
      name: 'an empty key with a NoSchedule effect covers neither',
      given: [{ operator: 'Exists', effect: 'NoSchedule' }],
      want: [{ operator: 'Exists', effect: 'NoSchedule' }, notReady, unreachable],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pod = makePod('p');
      pod.spec.tolerations = c.given;
      assert.deepEqual(withDefaultTolerations(pod).spec.tolerations, c.want);
    });
  }
  it('is part of admitPod and leaves the given pod unchanged', () => {
    const pod = makePod('p');
    assert.deepEqual(admitPod(pod).spec.tolerations, [notReady, unreachable]);
    assert.equal(pod.spec.tolerations, undefined);
  });
});
