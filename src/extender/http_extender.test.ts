// HttpExtender against a fake transport (pkg/scheduler/extender_test.go's HTTPExtender cases):
// what it sends for each verb, and how it reads the answers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import type { Extender as ExtenderConfig } from '../config/types.js';
import { NodeInfo } from '../framework/node_info.js';
import { PodInfo } from '../framework/pod_info.js';
import { makeNode, makePod } from '../testing/builders.js';
import { HttpExtender } from './http_extender.js';
import type { ExtenderTransport } from './transport.js';
import type {
  ExtenderArgs,
  ExtenderBindingArgs,
  ExtenderFilterResult,
  ExtenderPreemptionArgs,
  ExtenderPreemptionResult,
  HostPriorityList,
} from './wire.js';

interface Recorded {
  url: string;
  body: unknown;
}

/** Answers each URL with a canned status and JSON body (a string body is sent as is). */
function fakeTransport(answers: Record<string, { status?: number; body: unknown }>): {
  transport: ExtenderTransport;
  calls: Recorded[];
} {
  const calls: Recorded[] = [];
  const transport: ExtenderTransport = (url, body) => {
    calls.push({ url, body: JSON.parse(body) });
    const a = answers[url];
    if (a === undefined) return Promise.reject(new Error(`unexpected request to ${url}`));
    const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    return Promise.resolve({ status: a.status ?? 200, body: text });
  };
  return { transport, calls };
}

const prefix = 'http://extender.test/scheduler';
const cfg = (o: Partial<ExtenderConfig> = {}): ExtenderConfig => ({ urlPrefix: prefix, ...o });

function nodeInfos(...names: string[]): NodeInfo[] {
  return names.map((n) => new NodeInfo(makeNode(n)));
}

const pod = makePod('p', { uid: 'uid-p' });

describe('HttpExtender.isInterested', () => {
  const gpu = 'example.com/gpu';
  const withResources = (field: 'containers' | 'initContainers', requests?: Record<string, string>, limits?: Record<string, string>): Pod =>
    makePod('p', {
      spec: {
        containers: [{ name: 'main' }],
        [field]: [{ name: 'c', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } }],
      },
    });
  const cases: { name: string; managed: string[]; pod: Pod; want: boolean }[] = [
    { name: 'an extender managing no resources wants every pod', managed: [], pod: makePod('p'), want: true },
    { name: 'a container requesting a managed resource', managed: [gpu], pod: withResources('containers', { [gpu]: '1' }), want: true },
    { name: 'a container limiting a managed resource', managed: [gpu], pod: withResources('containers', undefined, { [gpu]: '1' }), want: true },
    { name: 'an init container requesting a managed resource', managed: [gpu], pod: withResources('initContainers', { [gpu]: '1' }), want: true },
    { name: 'a pod asking only for other resources', managed: [gpu], pod: withResources('containers', { cpu: '1' }, { memory: '1Gi' }), want: false },
    { name: 'a pod asking for nothing', managed: [gpu], pod: makePod('p'), want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const ext = new HttpExtender(cfg({ managedResources: c.managed.map((name) => ({ name })) }), fakeTransport({}).transport);
      assert.equal(ext.isInterested(c.pod), c.want);
    });
  }
});

describe('HttpExtender verbs', () => {
  it('name() is the URL prefix; the is* methods follow the configured verbs', () => {
    const ext = new HttpExtender(cfg({ filterVerb: 'filter', bindVerb: 'bind', ignorable: true }), fakeTransport({}).transport);
    assert.equal(ext.name(), prefix);
    assert.deepEqual(
      [ext.isFilter(), ext.isPrioritizer(), ext.isBinder(), ext.supportsPreemption(), ext.isIgnorable()],
      [true, false, true, false, true],
    );
  });
});

describe('HttpExtender.filter', () => {
  it('without a filter verb passes every node and sends nothing', async () => {
    const { transport, calls } = fakeTransport({});
    const nodes = nodeInfos('n1', 'n2');
    const got = await new HttpExtender(cfg(), transport).filter(pod, nodes);
    assert.deepEqual(got.feasible, nodes);
    assert.deepEqual([got.failed, got.failedAndUnresolvable], [{}, {}]);
    assert.equal(calls.length, 0);
  });

  it('sends whole nodes and maps the returned ones back to the input NodeInfos, in the answer order', async () => {
    const nodes = nodeInfos('n1', 'n2', 'n3');
    const answer: ExtenderFilterResult = {
      Nodes: { metadata: {}, items: [makeNode('n3'), makeNode('n1')] },
      FailedNodes: { n2: 'no disk' },
      FailedAndUnresolvableNodes: {},
    };
    const { transport, calls } = fakeTransport({ [`${prefix}/filter`]: { body: answer } });
    // A trailing slash on the prefix is dropped before the verb is appended.
    const got = await new HttpExtender(cfg({ urlPrefix: `${prefix}/`, filterVerb: 'filter' }), transport).filter(pod, nodes);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.url, `${prefix}/filter`);
    const want: ExtenderArgs = { Pod: pod, Nodes: { metadata: {}, items: nodes.map((n) => n.node!) }, NodeNames: null };
    assert.deepEqual(calls[0]!.body, want);
    assert.equal(got.feasible.length, 2);
    assert.ok(got.feasible[0] === nodes[2] && got.feasible[1] === nodes[0]);
    assert.deepEqual(got.failed, { n2: 'no disk' });
    assert.deepEqual(got.failedAndUnresolvable, {});
  });

  it('sends only node names to a nodeCacheCapable extender and reads NodeNames back', async () => {
    const nodes = nodeInfos('n1', 'n2', 'n3');
    const answer: ExtenderFilterResult = { NodeNames: ['n2'], FailedAndUnresolvableNodes: { n1: 'gone', n3: 'gone' } };
    const { transport, calls } = fakeTransport({ [`${prefix}/filter`]: { body: answer } });
    const got = await new HttpExtender(cfg({ filterVerb: 'filter', nodeCacheCapable: true }), transport).filter(pod, nodes);
    const want: ExtenderArgs = { Pod: pod, Nodes: null, NodeNames: ['n1', 'n2', 'n3'] };
    assert.deepEqual(calls[0]!.body, want);
    assert.ok(got.feasible.length === 1 && got.feasible[0] === nodes[1]);
    assert.deepEqual(got.failed, {});
    assert.deepEqual(got.failedAndUnresolvable, { n1: 'gone', n3: 'gone' });
  });

  const answerCases: { name: string; cacheCapable: boolean; answer: ExtenderFilterResult; want: string[] }[] = [
    { name: 'a nodeCacheCapable extender answering with Nodes only', cacheCapable: true, answer: { Nodes: { metadata: {}, items: [makeNode('n2')] } }, want: ['n2'] },
    { name: 'NodeNames answered to an extender that is not nodeCacheCapable are ignored', cacheCapable: false, answer: { NodeNames: ['n1'] }, want: [] },
    { name: 'an answer with neither Nodes nor NodeNames', cacheCapable: true, answer: { FailedNodes: { n1: 'x' } }, want: [] },
    { name: 'an empty NodeNames list wins over Nodes', cacheCapable: true, answer: { NodeNames: [], Nodes: { metadata: {}, items: [makeNode('n1')] } }, want: [] },
  ];
  for (const c of answerCases) {
    it(`feasible nodes: ${c.name}`, async () => {
      const { transport } = fakeTransport({ [`${prefix}/filter`]: { body: c.answer } });
      const ext = new HttpExtender(cfg({ filterVerb: 'filter', nodeCacheCapable: c.cacheCapable }), transport);
      const got = await ext.filter(pod, nodeInfos('n1', 'n2'));
      assert.deepEqual(got.feasible.map((n) => n.name), c.want);
    });
  }

  it('reads answer keys in any case, as Go does', async () => {
    const body = '{"nodenames":["n1"],"failednodes":{"n2":"full"},"FAILEDANDUNRESOLVABLENODES":{"n3":"tainted"},"error":""}';
    const { transport } = fakeTransport({ [`${prefix}/filter`]: { body } });
    const got = await new HttpExtender(cfg({ filterVerb: 'filter', nodeCacheCapable: true }), transport).filter(pod, nodeInfos('n1', 'n2', 'n3'));
    assert.deepEqual(got.feasible.map((n) => n.name), ['n1']);
    assert.deepEqual(got.failed, { n2: 'full' });
    assert.deepEqual(got.failedAndUnresolvable, { n3: 'tainted' });
  });

  it('reads the names of returned nodes whatever the case of their keys', async () => {
    const body = '{"nodes":{"Items":[{"Metadata":{"Name":"n2"}}]}}';
    const { transport } = fakeTransport({ [`${prefix}/filter`]: { body } });
    const got = await new HttpExtender(cfg({ filterVerb: 'filter' }), transport).filter(pod, nodeInfos('n1', 'n2'));
    assert.deepEqual(got.feasible.map((n) => n.name), ['n2']);
  });

  for (const cacheCapable of [true, false]) {
    it(`rejects a returned node that was not sent (nodeCacheCapable: ${cacheCapable})`, async () => {
      const answer: ExtenderFilterResult = cacheCapable ? { NodeNames: ['n1', 'ghost'] } : { Nodes: { metadata: {}, items: [makeNode('ghost')] } };
      const { transport } = fakeTransport({ [`${prefix}/filter`]: { body: answer } });
      const ext = new HttpExtender(cfg({ filterVerb: 'filter', nodeCacheCapable: cacheCapable }), transport);
      await assert.rejects(ext.filter(pod, nodeInfos('n1')), {
        message: `extender "${prefix}" claims a filtered node "ghost" which is not found in the input node list`,
      });
    });
  }

  it('rejects with the Error the extender answers', async () => {
    const { transport } = fakeTransport({ [`${prefix}/filter`]: { body: { Error: 'cache not synced', NodeNames: ['n1'] } } });
    const ext = new HttpExtender(cfg({ filterVerb: 'filter', nodeCacheCapable: true }), transport);
    await assert.rejects(ext.filter(pod, nodeInfos('n1')), { message: 'cache not synced' });
  });

  it('rejects a status other than 200 with the verb, URL and code', async () => {
    const { transport } = fakeTransport({ [`${prefix}/filter`]: { status: 503, body: {} } });
    const ext = new HttpExtender(cfg({ filterVerb: 'filter' }), transport);
    await assert.rejects(ext.filter(pod, nodeInfos('n1')), { message: `failed filter with extender at URL ${prefix}/filter, code 503` });
  });

  it('rejects an answer that is not JSON, or holds a field of the wrong type, naming the field as Go does', async () => {
    const cases: [string, RegExp][] = [
      ['not json', new RegExp(`decoding the filter answer of extender at URL ${prefix}/filter: `)],
      ['{"Error": 5}', /json: cannot unmarshal number into Go struct field ExtenderFilterResult\.Error of type string$/],
      ['{"NodeNames": "n1"}', /json: cannot unmarshal string into Go struct field ExtenderFilterResult\.NodeNames of type \[\]string$/],
      ['[]', /json: cannot unmarshal array into Go value of type v1\.ExtenderFilterResult$/],
    ];
    for (const [body, want] of cases) {
      const { transport } = fakeTransport({ [`${prefix}/filter`]: { body } });
      const ext = new HttpExtender(cfg({ filterVerb: 'filter', nodeCacheCapable: true }), transport);
      await assert.rejects(ext.filter(pod, nodeInfos('n1')), want, body);
    }
  });

  it('passes a transport failure through', async () => {
    const transport: ExtenderTransport = () => Promise.reject(new Error('Post "x": connect ECONNREFUSED'));
    const ext = new HttpExtender(cfg({ filterVerb: 'filter' }), transport);
    await assert.rejects(ext.filter(pod, nodeInfos('n1')), { message: 'Post "x": connect ECONNREFUSED' });
  });
});

describe('HttpExtender.prioritize', () => {
  it('without a prioritize verb scores every node 0 with weight 0 and sends nothing', async () => {
    const { transport, calls } = fakeTransport({});
    const got = await new HttpExtender(cfg({ weight: 3 }), transport).prioritize(pod, nodeInfos('n1', 'n2'));
    assert.deepEqual(got, { scores: [{ host: 'n1', score: 0 }, { host: 'n2', score: 0 }], weight: 0 });
    assert.equal(calls.length, 0);
  });

  it('returns the answered scores with the configured weight', async () => {
    const answer: HostPriorityList = [{ Host: 'n2', Score: 7 }, { Host: 'n1', Score: 2 }];
    const { transport, calls } = fakeTransport({ [`${prefix}/prioritize`]: { body: answer } });
    const ext = new HttpExtender(cfg({ prioritizeVerb: 'prioritize', weight: 5, nodeCacheCapable: true }), transport);
    const got = await ext.prioritize(pod, nodeInfos('n1', 'n2'));
    const want: ExtenderArgs = { Pod: pod, Nodes: null, NodeNames: ['n1', 'n2'] };
    assert.deepEqual(calls[0]!.body, want);
    assert.deepEqual(got, { scores: [{ host: 'n2', score: 7 }, { host: 'n1', score: 2 }], weight: 5 });
  });

  it('reads lowercase keys and a null list; rejects a fractional score', async () => {
    const read = async (body: string) => {
      const { transport } = fakeTransport({ [`${prefix}/prioritize`]: { body } });
      return new HttpExtender(cfg({ prioritizeVerb: 'prioritize', weight: 1 }), transport).prioritize(pod, nodeInfos('n1'));
    };
    assert.deepEqual((await read('[{"host":"n1","score":4}]')).scores, [{ host: 'n1', score: 4 }]);
    assert.deepEqual((await read('null')).scores, []);
    await assert.rejects(read('[{"Host":"n1","Score":1.5}]'), /cannot unmarshal number 1\.5 into Go struct field HostPriority\.Score of type int64/);
  });
});

describe('HttpExtender.bind', () => {
  const binding = { podName: 'p', podNamespace: 'ns', podUID: 'uid-p', node: 'n1' };

  it('posts the binding and resolves on an answer without error', async () => {
    const { transport, calls } = fakeTransport({ [`${prefix}/bind`]: { body: { Error: '' } } });
    await new HttpExtender(cfg({ bindVerb: 'bind' }), transport).bind(binding);
    const want: ExtenderBindingArgs = { PodName: 'p', PodNamespace: 'ns', PodUID: 'uid-p', Node: 'n1' };
    assert.deepEqual(calls, [{ url: `${prefix}/bind`, body: want }]);
  });

  it('rejects with the Error the extender answers', async () => {
    const { transport } = fakeTransport({ [`${prefix}/bind`]: { body: { error: 'node is full' } } });
    await assert.rejects(new HttpExtender(cfg({ bindVerb: 'bind' }), transport).bind(binding), { message: 'node is full' });
  });

  it('refuses to bind without a bind verb, sending nothing', async () => {
    const { transport, calls } = fakeTransport({});
    await assert.rejects(new HttpExtender(cfg(), transport).bind(binding), { message: 'unexpected empty bindVerb in extender' });
    assert.equal(calls.length, 0);
  });
});

describe('HttpExtender.processPreemption', () => {
  const victim = (name: string, node: string) => makePod(name, { uid: `uid-${name}`, node });
  const a1 = victim('a1', 'na');
  const a2 = victim('a2', 'na');
  const b1 = victim('b1', 'nb');
  const infos = new Map<string, NodeInfo>();
  for (const [name, pods] of [['na', [a1, a2]], ['nb', [b1]]] as const) {
    const ni = new NodeInfo(makeNode(name));
    for (const p of pods) ni.addPod(new PodInfo(p));
    infos.set(name, ni);
  }
  const lookup = (name: string) => infos.get(name);
  // Inserted out of order: the request lists nodes sorted, as Go writes map keys.
  const candidates = new Map([
    ['nb', { pods: [b1], numPDBViolations: 0 }],
    ['na', { pods: [a1, a2], numPDBViolations: 1 }],
  ]);
  const preemptCfg = (nodeCacheCapable: boolean) => cfg({ preemptVerb: 'preempt', nodeCacheCapable });

  it('sends victims by UID to a nodeCacheCapable extender and turns the answered UIDs back into pods', async () => {
    const answer: ExtenderPreemptionResult = { NodeNameToMetaVictims: { na: { Pods: [{ UID: 'uid-a2' }], NumPDBViolations: 0 } } };
    const { transport, calls } = fakeTransport({ [`${prefix}/preempt`]: { body: answer } });
    const got = await new HttpExtender(preemptCfg(true), transport).processPreemption(pod, candidates, lookup);
    const want: ExtenderPreemptionArgs = {
      Pod: pod,
      NodeNameToVictims: null,
      NodeNameToMetaVictims: {
        na: { Pods: [{ UID: 'uid-a1' }, { UID: 'uid-a2' }], NumPDBViolations: 1 },
        nb: { Pods: [{ UID: 'uid-b1' }], NumPDBViolations: 0 },
      },
    };
    assert.deepEqual(calls[0]!.body, want);
    assert.deepEqual(Object.keys((calls[0]!.body as ExtenderPreemptionArgs).NodeNameToMetaVictims!), ['na', 'nb']);
    assert.deepEqual([...got.keys()], ['na']);
    assert.ok(got.get('na')!.pods[0] === a2);
    assert.deepEqual(got.get('na'), { pods: [a2], numPDBViolations: 0 });
  });

  it('sends whole victim pods to an extender that is not nodeCacheCapable', async () => {
    const answer: ExtenderPreemptionResult = {
      NodeNameToMetaVictims: { nb: { Pods: [{ UID: 'uid-b1' }], NumPDBViolations: 0 }, na: { Pods: [], NumPDBViolations: 1 } },
    };
    const { transport, calls } = fakeTransport({ [`${prefix}/preempt`]: { body: answer } });
    const got = await new HttpExtender(preemptCfg(false), transport).processPreemption(pod, candidates, lookup);
    const want: ExtenderPreemptionArgs = {
      Pod: pod,
      NodeNameToVictims: { na: { Pods: [a1, a2], NumPDBViolations: 1 }, nb: { Pods: [b1], NumPDBViolations: 0 } },
      NodeNameToMetaVictims: null,
    };
    assert.deepEqual(calls[0]!.body, want);
    assert.deepEqual(got, new Map([['nb', { pods: [b1], numPDBViolations: 0 }], ['na', { pods: [], numPDBViolations: 1 }]]));
  });

  it('an answer without victims keeps no candidate', async () => {
    const { transport } = fakeTransport({ [`${prefix}/preempt`]: { body: {} } });
    const got = await new HttpExtender(preemptCfg(true), transport).processPreemption(pod, candidates, lookup);
    assert.equal(got.size, 0);
  });

  it('rejects a victim that is not on the node the extender names', async () => {
    const answer: ExtenderPreemptionResult = { NodeNameToMetaVictims: { nb: { Pods: [{ UID: 'uid-a1' }], NumPDBViolations: 0 } } };
    const { transport } = fakeTransport({ [`${prefix}/preempt`]: { body: answer } });
    await assert.rejects(new HttpExtender(preemptCfg(true), transport).processPreemption(pod, candidates, lookup), {
      message: `extender: ${prefix} claims to preempt pod (UID: uid-a1) on node: nb, but the pod is not found on that node`,
    });
  });

  it('rejects a node that is not in the snapshot', async () => {
    const answer: ExtenderPreemptionResult = { NodeNameToMetaVictims: { nx: { Pods: [], NumPDBViolations: 0 } } };
    const { transport } = fakeTransport({ [`${prefix}/preempt`]: { body: answer } });
    await assert.rejects(new HttpExtender(preemptCfg(true), transport).processPreemption(pod, candidates, lookup), /on node: nx, but nodeinfo is not found/);
  });

  it('refuses to run without a preempt verb', async () => {
    const { transport, calls } = fakeTransport({});
    await assert.rejects(new HttpExtender(cfg(), transport).processPreemption(pod, candidates, lookup), {
      message: `preempt verb is not defined for extender ${prefix} but run into ProcessPreemption`,
    });
    assert.equal(calls.length, 0);
  });
});
