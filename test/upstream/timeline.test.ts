// The timeline explain records for the differential harness: the writes of each attempt, and the
// preemptor's gate read before its first victim's deletion is stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureGates } from '../../src/config/feature_gates.js';
import { explainOurs } from './ours.js';
import { corpusScenario } from '../fidelity_corpus.js';

const gate = (pod: string) => `gate ${pod} DefaultPreemption: waiting for the preemption for this pod to be finished`;

describe('runExplain recordWrites', () => {
  // Corpus 065: what the pinned release's harness records for these pods (async preemption on).
  const cases: { name: string; gates: string; pod: string; want: string[] }[] = [
    { name: 'a scheduled pod is bound', gates: '', pod: 'default/worker-sx9zmxvxk-7rwc9', want: ['bind default/worker-sx9zmxvxk-7rwc9 pool-b-2vkm'] },
    {
      name: 'asynchronous preemption: nomination, gate closed at the first victim, victims in order',
      gates: '',
      pod: 'batch/auth-6bfpfl2rc-rv46n',
      want: ['nominate batch/auth-6bfpfl2rc-rv46n pool-a-zczf', gate('batch/auth-6bfpfl2rc-rv46n'), 'delete batch/queue-bxwfff44v-kvqmm', 'delete batch/queue-bxwfff44v-2fbkk',
        'delete default/worker-5msjqgrc2-222xn', 'delete batch/ml-2l2fzkgbm-ncj2r', 'delete batch/queue-bxwfff44v-8q7b9', 'delete batch/queue-bxwfff44v-r8fvl'],
    },
    {
      name: "a lower-priority pod's nomination on the node is cleared",
      gates: '',
      pod: 'default/ml-rzwhvj4l6-qrp7l',
      want: ['unnominate batch/auth-lr8bzbbq7-45mm7', 'nominate default/ml-rzwhvj4l6-qrp7l pool-b-dd5l', gate('default/ml-rzwhvj4l6-qrp7l'), 'delete batch/ml-2l2fzkgbm-594kc'],
    },
    {
      name: 'synchronous preemption: no gate, the nomination after the victims',
      gates: 'SchedulerAsyncPreemption=false',
      pod: 'default/queue-sn96t2bqp-z8tlt',
      want: ['delete batch/ml-2l2fzkgbm-fvtjf', 'nominate default/queue-sn96t2bqp-z8tlt pool-b-kvrp'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const out = await explainOurs(corpusScenario('065.yaml'), FeatureGates.parse([c.gates]));
      assert.deepEqual(out.pods.find((p) => p.pod === c.pod)?.writes, c.want);
    });
  }
});
