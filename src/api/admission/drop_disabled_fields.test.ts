// kube-apiserver's dropDisabledFields for the pod fields the scheduler reads, at v1.37's defaults.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../types.js';
import { dropDisabledPodFields } from './drop_disabled_fields.js';
import { makePod } from '../../testing/builders.js';

const mount = (extra: object = {}) => ({ name: 'v', mountPath: '/v', ...extra });
const pod = (spec: Partial<Pod['spec']>): Pod => makePod('p', { spec });

describe('dropDisabledPodFields', () => {
  it('drops bindMountOptions from every kind of container (VolumeBindMountOptions is off)', () => {
    const given = pod({
      containers: [{ name: 'c', image: 'x', volumeMounts: [mount({ bindMountOptions: ['nosymfollow'] }), mount()] }],
      initContainers: [{ name: 'i', image: 'x', volumeMounts: [mount({ bindMountOptions: [] })] }],
    });
    const before = structuredClone(given);
    const out = dropDisabledPodFields(given);
    assert.deepEqual(out.spec.containers[0]!.volumeMounts, [mount(), mount()]);
    assert.deepEqual(out.spec.initContainers![0]!.volumeMounts, [mount()]);
    assert.deepEqual(given, before, 'the input is not changed');
  });

  it('returns a pod without such fields as it is', () => {
    const given = pod({ containers: [{ name: 'c', image: 'x', volumeMounts: [mount()] }] });
    assert.equal(dropDisabledPodFields(given), given);
  });
});
