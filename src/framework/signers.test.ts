// canonicalJson and deferred fragments: a fragment's canonical form is built only when the
// signature is serialised, and serialises as the value computed at once would.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import { canonicalJson, deferredFragment, hostPortsSigner, nodeAffinitySigner, tolerationsSigner, volumesSigner } from './signers.js';

function pod(spec: Partial<Pod['spec']>): Pod {
  return { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } as Pod;
}

const pods: [string, Pod][] = [
  ['no affinity, ports, tolerations or volumes', pod({})],
  ['node affinity', pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'z', operator: 'In', values: ['b', 'a'] }] }] } } } })],
  ['host ports', pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, hostPort: 90 }, { containerPort: 81, hostPort: 80 }] }] })],
  ['tolerations', pod({ tolerations: [{ key: 'b', operator: 'Exists' }, { key: 'a', operator: 'Exists' }] })],
  ['volumes', pod({ volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'd' } }, { name: 's', secret: { secretName: 's' } }] })],
];

const signers: [string, (p: Pod) => unknown][] = [
  ['nodeAffinity', nodeAffinitySigner],
  ['hostPorts', hostPortsSigner],
  ['tolerations', tolerationsSigner],
  ['volumes', volumesSigner],
];

describe('deferredFragment', () => {
  it('serialises as the value computed at once, absent values left out', () => {
    for (const [podName, p] of pods) {
      for (const [name, form] of signers) {
        const f = deferredFragment(name, form, p);
        assert.equal(canonicalJson({ s: 'x', [f.key]: f.value }), canonicalJson({ s: 'x', [name]: form(p) }), `${name} of ${podName}`);
      }
    }
  });

  it('computes nothing until the signature is serialised', () => {
    let calls = 0;
    const f = deferredFragment('k', () => (calls++, ['a']), pods[0]![1]);
    assert.equal(calls, 0);
    assert.equal(canonicalJson({ [f.key]: f.value }), '{"k":["a"]}');
    assert.equal(calls, 1);
  });
});
