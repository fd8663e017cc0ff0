// The timeline explain records for the differential harness: the writes of each attempt, and the
// preemptor's gate read before its first victim's deletion is stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureGates } from '../../src/config/feature_gates.js';
import { explainCorpus, explainOurs } from './ours.js';
import { corpusScenario } from '../fidelity_corpus.js';
import { generateScenario } from './generator.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import type { ExplainPod } from '../../src/sim/explain/explain.js';

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

describe('runExplain recordWrites: retries and final placements', () => {
  // Corpus 065 at the default gates: what the pinned release's harness reports (retries.go).
  const retry = (p: ExplainPod) => [p.outcome, p.node, p.nominatedNode, p.victims.join(','), p.writes?.join('; ')];
  const cases: { name: string; pod: string; retries: string[][]; final: string }[] = [
    {
      name: 'a preemptor nominated on its first attempt binds on its retry',
      pod: 'batch/auth-6bfpfl2rc-rv46n',
      retries: [['Scheduled', 'pool-a-zczf', '', '', 'bind batch/auth-6bfpfl2rc-rv46n pool-a-zczf']],
      final: 'bound pool-a-zczf',
    },
    {
      name: 'a preemptor whose nomination a higher-priority pod cleared preempts again elsewhere, then binds',
      pod: 'default/ml-rzwhvj4l6-qrp7l',
      retries: [
        ['Unschedulable', '', 'pool-b-6zbd', 'batch/ml-2l2fzkgbm-jdj2f,batch/queue-bxwfff44v-49hdz,batch/queue-bxwfff44v-w9zkc,default/auth-zzck5qbpc-v85gt',
          ['nominate default/ml-rzwhvj4l6-qrp7l pool-b-6zbd', gate('default/ml-rzwhvj4l6-qrp7l'), 'delete default/auth-zzck5qbpc-v85gt', 'delete batch/queue-bxwfff44v-w9zkc',
            'delete batch/queue-bxwfff44v-49hdz', 'delete batch/ml-2l2fzkgbm-jdj2f'].join('; ')],
        ['Scheduled', 'pool-b-6zbd', '', '', 'bind default/ml-rzwhvj4l6-qrp7l pool-b-6zbd'],
      ],
      final: 'bound pool-b-6zbd',
    },
    {
      name: 'a pod that fits nowhere is tried in each of the three rounds and stays pending, its nomination gone',
      pod: 'batch/frontend-gp9xrq7p9-qhxjl',
      retries: [['Unschedulable', '', '', '', 'unnominate batch/frontend-gp9xrq7p9-qhxjl'], ['Unschedulable', '', '', '', ''], ['Unschedulable', '', '', '', '']],
      final: 'pending',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const p = (await explainCorpus('065.yaml')).pods.find((x) => x.pod === c.pod);
      assert.deepEqual(p?.retries?.map(retry), c.retries);
      assert.equal(p?.final, c.final);
    });
  }
});

describe('runExplain for the harness: no PV controller', () => {
  it('a pod waiting for its volumes stays in PreBind, reported scheduled there and assumed to the end, as upstream', async () => {
    // Seed 1, scenario 3 of the preemption-prebind family: what the pinned release's harness reports.
    const sc = parseScenario(JSON.stringify(generateScenario(1, 3, 'preemption-prebind')), 'gen-1-0003');
    const p = (await explainOurs(sc)).pods.find((x) => x.pod === 'default/batch-004');
    assert.deepEqual([p?.outcome, p?.node, p?.writes, p?.retries, p?.final], ['Scheduled', 'node-02', ['nominate default/batch-004 node-02'], undefined, 'assumed node-02']);
  });
});


describe('runExplain for the harness: gang members sharing a claim', () => {
  it('the members whose PreBind found the group\'s claim written first fail, are retried at once and bind, as upstream', async () => {
    // Seed 1, scenario 2 of the workload family with shared claims: what the pinned release's
    // harness reports (group.go retryFailedMembers). group-2's five members share one claim.
    const gates = FeatureGates.parse(['DRAWorkloadResourceClaims=true,GenericWorkload=true']);
    const sc = parseScenario(JSON.stringify(generateScenario(1, 2, 'workload', { sharedClaims: true })), 'gen-1-0002');
    const pods = (await explainOurs(sc, gates)).pods.filter((p) => p.pod.startsWith('default/group-2-'));
    const lost = 'running PreBind plugin "DynamicResources": claim default/group-2-gpu got allocated elsewhere in the meantime';
    const node = 'ip-10-0-14.internal';
    assert.deepEqual(pods.map((p) => [p.pod, p.outcome, p.node, p.message, p.bestNodes, p.retries?.map((r) => [r.outcome, r.node]), p.final]), [
      ['default/group-2-m0', 'Scheduled', node, '', [node], undefined, undefined],
      ...[1, 2, 3, 4].map((i) => [`default/group-2-m${i}`, 'Error', '', lost, [node], [['Scheduled', node]], `bound ${node}`]),
    ]);
  });
});
