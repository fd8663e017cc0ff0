// Scenarios of upstream's default_preemption_test.go (TestPostFilter, TestDryRunPreemption,
// TestPodEligibleToPreemptOthers), run through a real Framework.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, PodDisruptionBudget } from '../../api/types.js';
import type { AnyPluginDefinition } from '../../framework/registry.js';
import { Code } from '../../framework/status.js';
import { compileDisruptionBudgets } from './pdb.js';
import {
  epoch, errorOnLabelledNodesDefinition, falseFilterDefinition, highPriority, largeRes, lowPriority, matchFilterDefinition,
  mediumRes, midPriority, newEnv, node, pdb, pod, postFilterNow, preFiltered, smallRes, statuses, trueFilterDefinition, veryHighPriority,
  veryLargeRes, type EnvOptions,
} from './test_helpers.js';

const onePod = { pods: '1' };
const nodeRes = { cpu: '200m', memory: '400' };
const violating = { 'test.kubernetes.io/is-violating-pdb': 'violating' };
const nonViolating = { 'test.kubernetes.io/is-violating-pdb': 'non-violating' };

describe('DefaultPreemption PostFilter', () => {
  const cases: {
    name: string;
    pod: Pod;
    pods: Pod[];
    nodes: Node[];
    pdbs?: PodDisruptionBudget[];
    filtered: Record<string, Code>;
    preFilterOnly?: AnyPluginDefinition[];
    wantNode: string | null;
    wantCode: Code;
    wantMessage: string;
  }[] = [
    {
      name: 'pod with higher priority can be made schedulable',
      pod: pod('p', { priority: highPriority }),
      pods: [pod('p1', { node: 'node1' })],
      nodes: [node('node1', onePod)],
      filtered: { node1: Code.Unschedulable },
      wantNode: 'node1',
      wantCode: Code.Success,
      wantMessage: 'preemption: found a potential placement for pod on node node1, preempting 1 victims',
    },
    {
      name: 'pod with tied priority is still unschedulable',
      pod: pod('p'),
      pods: [pod('p1', { node: 'node1' })],
      nodes: [node('node1', onePod)],
      filtered: { node1: Code.Unschedulable },
      wantNode: '',
      wantCode: Code.Unschedulable,
      wantMessage: 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    },
    {
      name: 'preemption should respect filteredNodesStatuses',
      pod: pod('p', { priority: highPriority }),
      pods: [pod('p1', { node: 'node1' })],
      nodes: [node('node1', onePod)],
      filtered: { node1: Code.UnschedulableAndUnresolvable },
      wantNode: '',
      wantCode: Code.Unschedulable,
      wantMessage: 'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'a node absent from the filter statuses counts as UnschedulableAndUnresolvable',
      pod: pod('p', { priority: highPriority }),
      pods: [pod('p1', { node: 'node1' })],
      nodes: [node('node1', onePod)],
      filtered: {},
      wantNode: '',
      wantCode: Code.Unschedulable,
      wantMessage: 'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'pod can be made schedulable on one node',
      pod: pod('p', { priority: midPriority }),
      pods: [pod('p1', { node: 'node1', priority: highPriority }), pod('p2', { node: 'node2', priority: lowPriority })],
      nodes: [node('node1', onePod), node('node2', onePod)],
      filtered: { node1: Code.Unschedulable, node2: Code.Unschedulable },
      wantNode: 'node2',
      wantCode: Code.Success,
      wantMessage: 'preemption: found a potential placement for pod on node node2, preempting 1 victims',
    },
    {
      name: 'pod can be made schedulable on the node whose highest victim priority is lowest',
      pod: pod('p', { priority: veryHighPriority }),
      pods: [
        pod('p1', { node: 'node1', priority: highPriority, labels: nonViolating }),
        pod('p2', { node: 'node1', priority: lowPriority, labels: violating }),
        pod('p3', { node: 'node2', priority: midPriority, labels: violating }),
      ],
      pdbs: [pdb('violating-pdb', violating, 0), pdb('non-violating-pdb', nonViolating, 2147483647)],
      nodes: [node('node1', onePod), node('node2', onePod)],
      filtered: { node1: Code.Unschedulable, node2: Code.Unschedulable },
      wantNode: 'node2',
      wantCode: Code.Success,
      wantMessage: 'preemption: found a potential placement for pod on node node2, preempting 1 victims',
    },
    {
      name: 'no candidate nodes found, not enough resource after removing low priority pods',
      pod: pod('p', { priority: highPriority, requests: largeRes }),
      pods: [pod('p1', { node: 'node1' }), pod('p2', { node: 'node2' })],
      nodes: [node('node1', nodeRes), node('node2', nodeRes)],
      filtered: { node1: Code.Unschedulable, node2: Code.Unschedulable },
      wantNode: '',
      wantCode: Code.Unschedulable,
      wantMessage: 'preemption: 0/2 nodes are available: 2 Insufficient cpu.',
    },
    {
      name: 'no candidate nodes found with mixed reasons, no lower priority pod and not enough CPU',
      pod: pod('p', { priority: highPriority, requests: largeRes }),
      pods: [
        pod('p1', { node: 'node1', priority: highPriority }),
        pod('p2', { node: 'node2' }),
        pod('p3', { node: 'node3', priority: highPriority }),
      ],
      nodes: [node('node1', onePod), node('node2', nodeRes), node('node3', onePod)],
      filtered: { node1: Code.Unschedulable, node2: Code.Unschedulable, node3: Code.Unschedulable },
      wantNode: '',
      wantCode: Code.Unschedulable,
      wantMessage: 'preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.',
    },
    {
      name: 'no candidate nodes found, 2 UnschedulableAndUnresolvable nodes and 2 nodes without enough CPU',
      pod: pod('p', { priority: highPriority, requests: largeRes }),
      pods: [pod('p1', { node: 'node1' }), pod('p2', { node: 'node2' })],
      nodes: [node('node1', nodeRes), node('node2', nodeRes), node('node3', nodeRes), node('node4', nodeRes)],
      filtered: { node1: Code.Unschedulable, node2: Code.Unschedulable, node4: Code.UnschedulableAndUnresolvable },
      wantNode: '',
      wantCode: Code.Unschedulable,
      wantMessage: 'preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.',
    },
    {
      name: 'only one node but RemovePod of a PreFilter plugin fails there',
      pod: pod('p', { priority: highPriority, requests: largeRes }),
      pods: [pod('p1', { node: 'node1' })],
      nodes: [node('node1', largeRes, { error: 'true' })],
      filtered: { node1: Code.Unschedulable },
      preFilterOnly: [errorOnLabelledNodesDefinition],
      wantNode: null,
      wantCode: Code.Error,
      wantMessage: 'preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p',
    },
    {
      name: 'one node fails with a PreFilter extension error and the other is a candidate',
      pod: pod('p', { priority: highPriority, requests: largeRes }),
      pods: [pod('p1', { node: 'node1' }), pod('p2', { node: 'node2', requests: mediumRes })],
      nodes: [node('node1', largeRes, { error: 'true' }), node('node2', largeRes)],
      filtered: { node1: Code.Unschedulable, node2: Code.Unschedulable },
      preFilterOnly: [errorOnLabelledNodesDefinition],
      wantNode: 'node2',
      wantCode: Code.Success,
      wantMessage: 'preemption: found a potential placement for pod on node node2, preempting 1 victims',
    },
    {
      name: 'pod with preemptionPolicy Never may not preempt',
      pod: pod('p', { priority: highPriority, preemptionPolicy: 'Never' }),
      pods: [pod('p1', { node: 'node1' })],
      nodes: [node('node1', onePod)],
      filtered: { node1: Code.Unschedulable },
      wantNode: null,
      wantCode: Code.Unschedulable,
      wantMessage: 'preemption: not eligible due to preemptionPolicy=Never.',
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const env = newEnv({ nodes: tc.nodes, pods: tc.pods, pdbs: tc.pdbs, preFilterOnly: tc.preFilterOnly });
      const { state, podInfo } = preFiltered(env, tc.pod);
      const { result, status } = postFilterNow(env, state, podInfo, statuses(tc.filtered));
      assert.equal(status?.code ?? Code.Success, tc.wantCode);
      assert.equal(status?.message() ?? '', tc.wantMessage);
      assert.equal(result === null ? null : result.nominatedNodeName, tc.wantNode);
    });
  }
});

interface DryRunCase {
  name: string;
  pods: Pod[];
  testPods: Pod[];
  nodeNames: string[];
  pdbs?: PodDisruptionBudget[];
  filters?: EnvOptions['filters'];
  args?: EnvOptions['args'];
  /** The dry run's offset per test pod (upstream draws them from a seeded source). */
  offsets?: number[];
  /** Sorted candidates per test pod: node name → victim names (sorted) and PDB violations. */
  want: Record<string, { victims: string[]; violations?: number }>[];
  /** Errors expected per test pod, when no candidate is found. */
  wantErrors?: string[];
}

describe('DefaultPreemption dry run (SelectVictimsOnNode over candidate nodes)', () => {
  const cases: DryRunCase[] = [
    {
      name: 'a pod that does not fit on any node',
      filters: [falseFilterDefinition],
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: highPriority })],
      pods: [pod('p1', { node: 'node1', priority: midPriority }), pod('p2', { node: 'node2', priority: midPriority })],
      want: [{}],
    },
    {
      name: 'a pod that fits with no preemption finds no candidate',
      filters: [trueFilterDefinition],
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: highPriority })],
      pods: [pod('p1', { node: 'node1', priority: midPriority }), pod('p2', { node: 'node2', priority: midPriority })],
      want: [{}],
      wantErrors: ['expected at least one victim pod on node "node1"', 'expected at least one victim pod on node "node2"'],
    },
    {
      name: 'a pod that fits on one node with no preemption',
      filters: [matchFilterDefinition],
      nodeNames: ['node1', 'node2'],
      testPods: [pod('node1', { priority: highPriority })],
      pods: [pod('p1', { node: 'node1', priority: midPriority }), pod('p2', { node: 'node2', priority: midPriority })],
      want: [{}],
      wantErrors: ['expected at least one victim pod on node "node1"'],
    },
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: [
        pod('p1', { node: 'node1', priority: midPriority, requests: largeRes }),
        pod('p2', { node: 'node2', priority: midPriority, requests: largeRes }),
      ],
      want: [{ node1: { victims: ['p1'] }, node2: { victims: ['p2'] } }],
    },
    {
      name: 'a pod that would fit, but the pods running are of higher priority: no preemption',
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: lowPriority, requests: largeRes })],
      pods: [
        pod('p1', { node: 'node1', priority: midPriority, requests: largeRes }),
        pod('p2', { node: 'node2', priority: midPriority, requests: largeRes }),
      ],
      want: [{}],
    },
    {
      name: 'medium priority pod is preempted, but the smaller lower priority one stays',
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: [
        pod('p1.1', { node: 'node1', priority: lowPriority, requests: smallRes }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: largeRes }),
        pod('p2', { node: 'node2', priority: midPriority, requests: largeRes }),
      ],
      want: [{ node1: { victims: ['p1.2'] }, node2: { victims: ['p2'] } }],
    },
    {
      name: 'mixed priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: smallRes }),
        pod('p1.2', { node: 'node1', priority: lowPriority, requests: smallRes }),
        pod('p1.3', { node: 'node1', priority: midPriority, requests: mediumRes }),
        pod('p1.4', { node: 'node1', priority: highPriority, requests: smallRes }),
        pod('p2', { node: 'node2', priority: highPriority, requests: largeRes }),
      ],
      want: [{ node1: { victims: ['p1.2', 'p1.3'] } }],
    },
    {
      name: 'mixed priority pods are preempted, the later started one when priorities are equal',
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: [
        pod('p1.1', { node: 'node1', priority: lowPriority, requests: smallRes, startTime: epoch(5) }),
        pod('p1.2', { node: 'node1', priority: lowPriority, requests: smallRes, startTime: epoch(4) }),
        pod('p1.3', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: epoch(3) }),
        pod('p1.4', { node: 'node1', priority: highPriority, requests: smallRes, startTime: epoch(2) }),
        pod('p2', { node: 'node2', priority: highPriority, requests: largeRes, startTime: epoch(1) }),
      ],
      want: [{ node1: { victims: ['p1.1', 'p1.3'] } }],
    },
    {
      name: 'a Filter rejecting every node during the dry run leaves no candidate',
      filters: [falseFilterDefinition],
      nodeNames: ['node1', 'node2'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: [
        pod('p1', { node: 'node1', priority: midPriority, requests: largeRes }),
        pod('p2', { node: 'node2', priority: midPriority, requests: largeRes }),
      ],
      want: [{}],
    },
    {
      name: 'preemption with violation of the same pdb',
      nodeNames: ['node1'],
      testPods: [pod('p', { priority: highPriority, requests: veryLargeRes })],
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
      ],
      pdbs: [pdb('pdb', { app: 'foo' }, 1)],
      want: [{ node1: { victims: ['p1.1', 'p1.2'], violations: 1 } }],
    },
    {
      name: 'a pdb whose processed evictions do not include the victims still counts them',
      nodeNames: ['node1'],
      testPods: [pod('p', { priority: highPriority, requests: veryLargeRes })],
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
      ],
      pdbs: [pdb('pdb', { app: 'foo' }, 1, ['p2'])],
      want: [{ node1: { victims: ['p1.1', 'p1.2'], violations: 1 } }],
    },
    {
      name: 'a victim whose eviction the pdb already processed does not count against it',
      nodeNames: ['node1'],
      testPods: [pod('p', { priority: highPriority, requests: veryLargeRes })],
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
      ],
      pdbs: [pdb('pdb', { app: 'foo' }, 1, ['p1.2'])],
      want: [{ node1: { victims: ['p1.1', 'p1.2'], violations: 0 } }],
    },
    {
      name: 'a victim already disrupted is non-violating, the others still exceed the budget',
      nodeNames: ['node1'],
      testPods: [pod('p', { priority: highPriority, requests: veryLargeRes })],
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
        pod('p1.3', { node: 'node1', priority: midPriority, requests: mediumRes, labels: { app: 'foo' } }),
      ],
      pdbs: [pdb('pdb', { app: 'foo' }, 1, ['p1.3'])],
      want: [{ node1: { victims: ['p1.1', 'p1.2', 'p1.3'], violations: 1 } }],
    },
    {
      name: 'all nodes are possible candidates, but the args limit them to 2',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: ['1', '2', '3', '4', '5'].map((i) => pod(`p${i}`, { node: `node${i}`, priority: midPriority, requests: largeRes })),
      offsets: [4],
      want: [{ node1: { victims: ['p1'] }, node5: { victims: ['p5'] } }],
    },
    {
      name: 'some nodes are not possible candidates, the args limit them to 2',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: [
        pod('p1', { node: 'node1', priority: midPriority, requests: largeRes }),
        pod('p2', { node: 'node2', priority: veryHighPriority, requests: largeRes }),
        pod('p3', { node: 'node3', priority: midPriority, requests: largeRes }),
        pod('p4', { node: 'node4', priority: midPriority, requests: largeRes }),
        pod('p5', { node: 'node5', priority: veryHighPriority, requests: largeRes }),
      ],
      offsets: [4],
      want: [{ node1: { victims: ['p1'] }, node3: { victims: ['p3'] } }],
    },
    {
      name: 'the offset moves across scheduling cycles and wraps around',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: ['tp1', 'tp2', 'tp3'].map((n) => pod(n, { priority: highPriority, requests: largeRes })),
      pods: ['1', '2', '3', '4', '5'].map((i) => pod(`p${i}`, { node: `node${i}`, priority: midPriority, requests: largeRes })),
      offsets: [4, 1, 3],
      want: [
        { node1: { victims: ['p1'] }, node5: { victims: ['p5'] } },
        { node2: { victims: ['p2'] }, node3: { victims: ['p3'] } },
        { node4: { victims: ['p4'] }, node5: { victims: ['p5'] } },
      ],
    },
    {
      name: 'the dry run looks past numCandidates until a node violating no PDB is found',
      args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 },
      nodeNames: ['node1', 'node2', 'node3', 'node4', 'node5'],
      testPods: [pod('p', { priority: highPriority, requests: largeRes })],
      pods: [
        pod('p1', { node: 'node1', priority: midPriority, requests: largeRes, labels: { app: 'foo' } }),
        pod('p2', { node: 'node2', priority: midPriority, requests: largeRes, labels: { app: 'foo' } }),
        pod('p3', { node: 'node3', priority: midPriority, requests: largeRes }),
        pod('p4', { node: 'node4', priority: midPriority, requests: largeRes }),
        pod('p5', { node: 'node5', priority: midPriority, requests: largeRes, labels: { app: 'foo' } }),
      ],
      pdbs: [pdb('pdb', { app: 'foo' }, 0)],
      offsets: [4],
      want: [{ node1: { victims: ['p1'], violations: 1 }, node3: { victims: ['p3'] }, node5: { victims: ['p5'], violations: 1 } }],
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const nodes = tc.nodeNames.map((n) => node(n, veryLargeRes));
      // Sequential, as upstream's tests that pin the offset disable parallelism.
      const env = newEnv({ nodes, pods: tc.pods, pdbs: tc.pdbs, filters: tc.filters, args: tc.args, parallelism: 1 });
      const nodeInfos = [...env.snapshot.nodeInfoList].sort((a, b) => (a.name < b.name ? -1 : 1));
      const pdbs = compileDisruptionBudgets(tc.pdbs ?? []);
      tc.testPods.forEach((p, cycle) => {
        const { state, podInfo } = preFiltered(env, p);
        const numCandidates = env.plugin.calculateNumCandidates(nodeInfos.length);
        const { candidates, errors } = env.plugin.evaluator.dryRunPreemption(state, podInfo, nodeInfos, pdbs, tc.offsets?.[cycle] ?? 0, numCandidates);
        const got: Record<string, { victims: string[]; violations: number }> = {};
        for (const c of candidates) got[c.name] = { victims: c.victims.pods.map((v) => v.name).sort(), violations: c.victims.numPDBViolations };
        const want: Record<string, { victims: string[]; violations: number }> = {};
        for (const [name, w] of Object.entries(tc.want[cycle]!)) want[name] = { victims: w.victims, violations: w.violations ?? 0 };
        assert.deepEqual(got, want, `cycle ${cycle}`);
        if (tc.wantErrors) assert.deepEqual(errors.map((e) => e.message), tc.wantErrors);
      });
    });
  }

  it('checks a whole wave of `parallelism` nodes and keeps the lighter nodes first when a list is full', () => {
    // node-a carries more pods than node-b: with one list slot, the parallel check of node-b
    // would report first, as upstream's goroutines over a small cluster do.
    const nodes = [node('node-a', veryLargeRes), node('node-b', veryLargeRes)];
    const pods = [
      pod('a1', { node: 'node-a', priority: midPriority, requests: smallRes }),
      pod('a2', { node: 'node-a', priority: midPriority, requests: smallRes }),
      pod('a3', { node: 'node-a', priority: midPriority, requests: mediumRes }),
      pod('b1', { node: 'node-b', priority: midPriority, requests: largeRes }),
    ];
    const env = newEnv({ nodes, pods, args: { minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 1 }, parallelism: 16 });
    const { state, podInfo } = preFiltered(env, pod('p', { priority: highPriority, requests: veryLargeRes }));
    const { candidates } = env.plugin.evaluator.dryRunPreemption(state, podInfo, env.snapshot.nodeInfoList, [], 0, 1);
    assert.deepEqual(candidates.map((c) => c.name), ['node-b']);
  });
});

describe('DefaultPreemption PodEligibleToPreemptOthers', () => {
  const cases: { name: string; pod: Pod; pods: Pod[]; nodes: string[]; nominatedStatus: Code | null; want: string | null }[] = [
    {
      name: 'pod with a nominated node that filters found unresolvable may preempt again',
      pod: pod('p_with_nominated_node', { priority: highPriority, nominatedNodeName: 'node1' }),
      pods: [pod('p1', { priority: lowPriority, node: 'node1', terminating: true })],
      nodes: ['node1'],
      nominatedStatus: Code.UnschedulableAndUnresolvable,
      want: null,
    },
    {
      name: 'pod without nominated node',
      pod: pod('p_without_nominated_node', { priority: highPriority }),
      pods: [],
      nodes: [],
      nominatedStatus: null,
      want: null,
    },
    {
      name: "pod with 'Never' preemption policy",
      pod: pod('p_with_preempt_never_policy', { priority: highPriority, preemptionPolicy: 'Never' }),
      pods: [],
      nodes: [],
      nominatedStatus: null,
      want: 'not eligible due to preemptionPolicy=Never.',
    },
    {
      name: 'a preemption victim is still terminating on the nominated node (DisruptionTarget condition)',
      pod: pod('p_with_nominated_node', { priority: highPriority, nominatedNodeName: 'node1' }),
      pods: [pod('p1', { priority: lowPriority, node: 'node1', terminating: true, disruptionTarget: true })],
      nodes: ['node1'],
      nominatedStatus: null,
      want: 'not eligible due to a terminating pod on the nominated node.',
    },
    {
      name: 'terminating pods that are not preemption victims do not hold the pod back',
      pod: pod('p_with_nominated_node', { priority: highPriority, nominatedNodeName: 'node1' }),
      pods: [pod('p1', { priority: lowPriority, node: 'node1', terminating: true })],
      nodes: ['node1'],
      nominatedStatus: null,
      want: null,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const env = newEnv({ nodes: tc.nodes.map((n) => node(n, veryLargeRes)), pods: tc.pods });
      const { podInfo } = preFiltered(env, tc.pod);
      const status = tc.nominatedStatus === null ? null : statuses({ x: tc.nominatedStatus }).get('x');
      assert.equal(env.plugin.podEligibleToPreemptOthers(podInfo, status), tc.want);
    });
  }
});

describe('DefaultPreemption calculateNumCandidates', () => {
  const cases = [
    { name: 'all nodes when fewer than the absolute minimum', pct: 10, abs: 100, nodes: 10, want: 10 },
    { name: 'the absolute minimum over the percentage', pct: 10, abs: 100, nodes: 500, want: 100 },
    { name: 'the percentage over the absolute minimum', pct: 10, abs: 100, nodes: 5000, want: 500 },
    { name: 'percentage rounds down', pct: 40, abs: 1, nodes: 5, want: 2 },
    { name: 'zero percentage uses the absolute minimum', pct: 0, abs: 3, nodes: 20, want: 3 },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const env = newEnv({ nodes: [node('n', veryLargeRes)], args: { minCandidateNodesPercentage: tc.pct, minCandidateNodesAbsolute: tc.abs } });
      assert.equal(env.plugin.calculateNumCandidates(tc.nodes), tc.want);
    });
  }

  it('draws the offset from the handle random source', () => {
    const env = newEnv({ nodes: [node('n', veryLargeRes)], random: () => 0.99 });
    assert.deepEqual(env.plugin.getOffsetAndNumCandidates(5), { offset: 4, numCandidates: 5 });
  });
});
