import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ContainerExtendedResourceRequest, Pod } from '../../api/types.js';
import type { DeviceClass } from '../../api/dra_types.js';
import { NodeInfo } from '../../framework/node_info.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { DeviceClassResolver, isDRAExtendedResourceName, ResourceDeviceClassPrefix } from '../../dra/device_class_resolver.js';
import { createRequestsAndMappings, extendedResourceClaimForNode, filterExtendedResources, newExtendedResourceClaim, SpecialClaimInMemName, type DeviceClassLookup } from './extended_resources.js';
import { DynamicResourcesState } from './state.js';

const gpu = 'example.com/gpu';

/** A pod built as upstream's st.MakePod: containers con<i>, init containers init-con<i>, sidecars sidecar-con<i>. */
function podWith(parts: { kind: 'container' | 'init' | 'sidecar'; requests: Record<string, string> }[]): Pod {
  const containers: Container[] = [];
  const inits: Container[] = [];
  for (const p of parts) {
    const resources = { requests: p.requests };
    if (p.kind === 'container') containers.push({ name: `con${containers.length}`, resources });
    else if (p.kind === 'init') inits.push({ name: `init-con${inits.length}`, resources });
    else inits.push({ name: `sidecar-con${inits.length}`, resources, restartPolicy: 'Always' });
  }
  return makePod('p', { spec: { containers, ...(inits.length > 0 ? { initContainers: inits } : {}) } });
}

const classNamed = (name: string): DeviceClass => ({ metadata: { name }, spec: {} });

/** A resolver from a fixed table, as upstream's mockDeviceClassResolver. */
function table(mapping: Record<string, string>): DeviceClassLookup {
  return { getDeviceClass: (r) => (mapping[r] !== undefined ? classNamed(mapping[r]) : undefined) };
}

const c = (kind: 'container' | 'init' | 'sidecar', requests: Record<string, string>) => ({ kind, requests });

const onePod = podWith([c('container', { [gpu]: '1', [`${gpu}1`]: '2' })]);
const twoContainers = podWith([c('container', { [gpu]: '1' }), c('container', { [`${gpu}1`]: '2' })]);
const initAndContainer = podWith([c('container', { [gpu]: '1' }), c('init', { [`${gpu}init`]: '2' })]);
const twoInits = podWith([c('container', { [gpu]: '1' }), c('init', { [`${gpu}init`]: '1' }), c('init', { [`${gpu}init`]: '2' })]);
const initsAndSidecar = podWith([
  c('container', { [gpu]: '1' }),
  c('init', { [`${gpu}init`]: '1' }),
  c('sidecar', { [`${gpu}init`]: '1' }),
  c('init', { [`${gpu}init`]: '2' }),
]);
const implicitInit = podWith([c('init', { [`${gpu}init`]: '1', [`${ResourceDeviceClassPrefix}classInit`]: '2' })]);
const implicitInits = podWith([
  c('container', { [gpu]: '1' }),
  c('init', { [`${gpu}init`]: '1' }),
  c('init', { [`${ResourceDeviceClassPrefix}classInit`]: '2' }),
]);

const oneClass = table({ [gpu]: 'class' });
const twoClasses = table({ [gpu]: 'class', [`${gpu}1`]: 'class1' });
const initClasses = table({ [gpu]: 'class', [`${gpu}init`]: 'classInit', [`${ResourceDeviceClassPrefix}classInit`]: 'classInit' });
const amounts = (m: Record<string, number>) => new Map(Object.entries(m));

describe('createRequestsAndMappings: the requests', () => {
  const cases: { name: string; pod: Pod; resources: Map<string, number>; classes: DeviceClassLookup; want: [string, string, number][] }[] = [
    { name: 'no extended resources: no requests', pod: onePod, resources: amounts({}), classes: oneClass, want: [] },
    { name: 'one resource with a class', pod: onePod, resources: amounts({ [gpu]: 1 }), classes: oneClass, want: [['container-0-request-0', 'class', 1]] },
    {
      name: 'a resource without a class gets no request',
      pod: onePod, resources: amounts({ [gpu]: 1, [`${gpu}1`]: 2 }), classes: oneClass,
      want: [['container-0-request-0', 'class', 1]],
    },
    {
      name: 'two resources of one container: named by their place among its sorted requests',
      pod: onePod, resources: amounts({ [gpu]: 1, [`${gpu}1`]: 2 }), classes: twoClasses,
      want: [['container-0-request-0', 'class', 1], ['container-0-request-1', 'class1', 2]],
    },
    {
      name: 'two containers: named by the container index',
      pod: twoContainers, resources: amounts({ [gpu]: 1, [`${gpu}1`]: 2 }), classes: twoClasses,
      want: [['container-0-request-0', 'class', 1], ['container-1-request-0', 'class1', 2]],
    },
    {
      name: 'an init container counts first among the containers',
      pod: initAndContainer, resources: amounts({ [gpu]: 1, [`${gpu}init`]: 2 }), classes: initClasses,
      want: [['container-0-request-0', 'classInit', 2], ['container-1-request-0', 'class', 1]],
    },
    {
      name: 'init containers that run one after another share the largest request',
      pod: twoInits, resources: amounts({ [gpu]: 1, [`${gpu}init`]: 2 }), classes: initClasses,
      want: [['container-1-request-0', 'classInit', 2], ['container-2-request-0', 'class', 1]],
    },
    {
      name: 'an init container before a sidecar reuses the sidecar\'s devices and asks for the rest',
      pod: initsAndSidecar, resources: amounts({ [gpu]: 1, [`${gpu}init`]: 2 }), classes: initClasses,
      want: [['container-1-request-0', 'classInit', 1], ['container-2-request-0', 'classInit', 2], ['container-3-request-0', 'class', 1]],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const { requests } = createRequestsAndMappings(tc.pod, tc.resources, tc.classes);
      const got = requests.map((r) => {
        assert.equal(r.exactly?.allocationMode, 'ExactCount');
        return [r.name, r.exactly?.deviceClassName, r.exactly?.count];
      });
      assert.deepEqual(got, tc.want);
    });
  }
});

describe('createRequestsAndMappings: the container mappings', () => {
  const m = (containerName: string, resourceName: string, requestName: string): ContainerExtendedResourceRequest => ({ containerName, resourceName, requestName });
  const implicit = `${ResourceDeviceClassPrefix}classInit`;
  const cases: { name: string; pod: Pod; resources: Map<string, number>; classes: DeviceClassLookup; want: ContainerExtendedResourceRequest[] }[] = [
    {
      name: 'one container, two requests',
      pod: onePod, resources: amounts({ [gpu]: 1, [`${gpu}1`]: 2 }), classes: twoClasses,
      want: [m('con0', gpu, 'container-0-request-0'), m('con0', `${gpu}1`, 'container-0-request-1')],
    },
    {
      name: 'one init container with an explicit and an implicit resource of one class',
      pod: implicitInit, resources: amounts({ [`${gpu}init`]: 1, [implicit]: 2 }), classes: initClasses,
      want: [m('init-con0', implicit, 'container-0-request-0'), m('init-con0', `${gpu}init`, 'container-0-request-1')],
    },
    {
      name: 'two containers, two requests',
      pod: twoContainers, resources: amounts({ [gpu]: 1, [`${gpu}1`]: 2 }), classes: twoClasses,
      want: [m('con0', gpu, 'container-0-request-0'), m('con1', `${gpu}1`, 'container-1-request-0')],
    },
    {
      name: 'one init container, one container',
      pod: initAndContainer, resources: amounts({ [gpu]: 1, [`${gpu}init`]: 2 }), classes: initClasses,
      want: [m('init-con0', `${gpu}init`, 'container-0-request-0'), m('con0', gpu, 'container-1-request-0')],
    },
    {
      name: 'two init containers map to the larger one\'s request',
      pod: twoInits, resources: amounts({ [gpu]: 1, [`${gpu}init`]: 2 }), classes: initClasses,
      want: [m('init-con0', `${gpu}init`, 'container-1-request-0'), m('init-con1', `${gpu}init`, 'container-1-request-0'), m('con0', gpu, 'container-2-request-0')],
    },
    {
      name: 'explicit and implicit resources of init containers keep their own requests',
      pod: implicitInits, resources: amounts({ [gpu]: 1, [`${gpu}init`]: 1, [implicit]: 2 }), classes: initClasses,
      want: [m('init-con0', `${gpu}init`, 'container-0-request-0'), m('init-con1', implicit, 'container-1-request-0'), m('con0', gpu, 'container-2-request-0')],
    },
    {
      name: 'an init container before a sidecar maps to the sidecar\'s request too',
      pod: initsAndSidecar, resources: amounts({ [gpu]: 1, [`${gpu}init`]: 2 }), classes: initClasses,
      want: [
        m('init-con0', `${gpu}init`, 'container-1-request-0'),
        m('sidecar-con1', `${gpu}init`, 'container-1-request-0'),
        m('init-con2', `${gpu}init`, 'container-2-request-0'),
        m('con0', gpu, 'container-3-request-0'),
      ],
    },
  ];
  const order = (a: ContainerExtendedResourceRequest, b: ContainerExtendedResourceRequest) =>
    a.requestName.localeCompare(b.requestName) || a.containerName.localeCompare(b.containerName) || a.resourceName.localeCompare(b.resourceName);
  for (const tc of cases) {
    it(tc.name, () => {
      const { mappings } = createRequestsAndMappings(tc.pod, tc.resources, tc.classes);
      assert.deepEqual([...mappings].sort(order), [...tc.want].sort(order));
    });
  }
});

describe('DeviceClassResolver', () => {
  const cls = (name: string, extendedResourceName?: string, created = '2026-01-01T00:00:00Z'): DeviceClass => ({
    kind: 'DeviceClass',
    metadata: { name, creationTimestamp: created },
    spec: extendedResourceName !== undefined ? { extendedResourceName } : {},
  });

  it('maps the explicit name and every class\'s implicit name', () => {
    const r = new DeviceClassResolver(new MapObjectLister([cls('a', gpu), cls('b')]));
    assert.equal(r.getDeviceClass(gpu)?.metadata.name, 'a');
    assert.equal(r.getDeviceClass(`${ResourceDeviceClassPrefix}a`)?.metadata.name, 'a');
    assert.equal(r.getDeviceClass(`${ResourceDeviceClassPrefix}b`)?.metadata.name, 'b');
    assert.equal(r.getDeviceClass('example.com/other'), undefined);
  });

  it('the newer class wins an explicit name, then the smaller name; the loser is left out', () => {
    const lister = new MapObjectLister([cls('old', gpu, '2026-01-01T00:00:00Z'), cls('new', gpu, '2026-01-02T00:00:00Z')]);
    const r = new DeviceClassResolver(lister);
    assert.equal(r.getDeviceClass(gpu)?.metadata.name, 'new');
    // Added before the newer one, the older class keeps its implicit name.
    assert.equal(r.getDeviceClass(`${ResourceDeviceClassPrefix}old`)?.metadata.name, 'old');
    lister.upsert(cls('z-late', gpu, '2026-01-02T00:00:00Z'));
    lister.upsert(cls('a-late', gpu, '2026-01-02T00:00:00Z'));
    assert.equal(r.getDeviceClass(gpu)?.metadata.name, 'a-late', 'a tie goes to the smaller name');
    // Added after an equally new holder with a smaller name: upstream's cache ignores it entirely.
    assert.equal(r.getDeviceClass(`${ResourceDeviceClassPrefix}z-late`), undefined);
  });

  it('follows class changes and removals', () => {
    const lister = new MapObjectLister([cls('a', gpu)]);
    const r = new DeviceClassResolver(lister);
    assert.equal(r.getDeviceClass(gpu)?.metadata.name, 'a');
    lister.upsert(cls('a', 'example.com/tpu'));
    assert.equal(r.getDeviceClass(gpu), undefined);
    assert.equal(r.getDeviceClass('example.com/tpu')?.metadata.name, 'a');
    lister.remove(cls('a'));
    assert.equal(r.empty, true);
  });

  it('names a class may stand for', () => {
    for (const [name, want] of [[gpu, true], [`${ResourceDeviceClassPrefix}x`, true], ['cpu', false], ['kubernetes.io/x', false], ['hugepages-2Mi', false]] as const) {
      assert.equal(isDRAExtendedResourceName(name), want, name);
    }
  });
});

describe('extendedResourceClaimForNode', () => {
  const pod = podWith([c('container', { cpu: '1', [gpu]: '2' })]);
  const scalars = new Map([[gpu, 2]]);
  const nodeWith = (allocatable: Record<string, string>) => new NodeInfo(makeNode('n', { allocatable: { cpu: '4', ...allocatable } }));
  const cases = [
    { name: 'a node that advertises none of it asks the allocator for the class\'s devices', node: nodeWith({}), classes: table({ [gpu]: 'gpu-class' }), want: [{ name: 'container-0-request-1', exactly: { deviceClassName: 'gpu-class', allocationMode: 'ExactCount', count: 2 } }] },
    { name: 'a node that advertises it needs no devices', node: nodeWith({ [gpu]: '4' }), classes: table({ [gpu]: 'gpu-class' }), want: null },
    { name: 'no class backs the resource', node: nodeWith({}), classes: table({}), want: null },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const claim = extendedResourceClaimForNode(pod, scalars, tc.node, tc.classes);
      assert.deepEqual(claim?.spec.devices?.requests ?? null, tc.want);
      if (claim !== null) assert.equal(claim.metadata.name, SpecialClaimInMemName);
    });
  }
});

describe('filterExtendedResources: node variants', () => {
  const pod = podWith([c('container', { cpu: '1', [gpu]: '2', [`${gpu}1`]: '1' })]);
  const classes = table({ [gpu]: 'gpu-class', [`${gpu}1`]: 'gpu1-class' });
  const nodeWith = (name: string, allocatable: Record<string, string>) => new NodeInfo(makeNode(name, { allocatable: { cpu: '4', ...allocatable } }));
  const freshState = () => {
    const claim = newExtendedResourceClaim(pod, 'uid-x');
    return new DynamicResourcesState([claim], [{ availableOnNodes: null, allocation: null }], null, { podScalarResources: new Map([[gpu, 2], [`${gpu}1`, 1]]), initialClaimUID: 'uid-x' });
  };
  const variant = (state: DynamicResourcesState, node: NodeInfo) => {
    const out = filterExtendedResources(state, pod, node, classes);
    assert.ok(out !== null && !('code' in out), 'a variant');
    return out;
  };

  it('nodes that need the same devices share one variant and one claims array; others get their own', () => {
    const state = freshState();
    const a = variant(state, nodeWith('a', {}));
    const b = variant(state, nodeWith('b', {}));
    const c1 = variant(state, nodeWith('c', { [`${gpu}1`]: '1' }));
    assert.equal(b, a, 'the same object for the same needs');
    assert.notEqual(c1.claim, a.claim);
    assert.deepEqual(a.claim.spec.devices?.requests?.map((r) => r.exactly?.deviceClassName), ['gpu-class', 'gpu1-class']);
    assert.deepEqual(c1.claim.spec.devices?.requests?.map((r) => r.exactly?.deviceClassName), ['gpu-class']);
    assert.equal(state.claimsToAllocate(b.claim), state.claimsToAllocate(a.claim));
    assert.deepEqual(state.claimsToAllocate(c1.claim), [c1.claim]);
    // What a fresh state makes for each node is what the shared one handed out.
    assert.deepEqual(variant(freshState(), nodeWith('c', { [`${gpu}1`]: '1' })), c1);
    assert.deepEqual(variant(freshState(), nodeWith('b', {})), a);
  });

  it("a node's needs found once per attempt answer as a fresh state does, node by node", () => {
    const plain = 'example.com/plain';
    const withPlain = podWith([c('container', { cpu: '1', [gpu]: '2', [`${gpu}1`]: '1', [plain]: '1' })]);
    const scalars = new Map([[gpu, 2], [`${gpu}1`, 1], [plain, 1]]);
    const stateOf = () => new DynamicResourcesState([newExtendedResourceClaim(withPlain, 'uid-y')], [{ availableOnNodes: null, allocation: null }], null, { podScalarResources: scalars, initialClaimUID: 'uid-y' });
    const nodes = [
      nodeWith('none', { [plain]: '1' }),
      nodeWith('zero', { [plain]: '1', [gpu]: '0' }),
      nodeWith('gpu1', { [plain]: '1', [`${gpu}1`]: '3' }),
      nodeWith('all', { [plain]: '1', [gpu]: '2', [`${gpu}1`]: '1' }),
      nodeWith('no-plain', {}),
      nodeWith('none-again', { [plain]: '2' }),
    ];
    const shared = stateOf();
    const outs = nodes.map((n) => filterExtendedResources(shared, withPlain, n, classes));
    for (let i = 0; i < nodes.length; i++) {
      assert.deepEqual(outs[i], filterExtendedResources(stateOf(), withPlain, nodes[i]!, classes), nodes[i]!.node!.metadata.name);
    }
    assert.equal(outs[3], null, 'every resource advertised: nothing for devices');
    const rejected = outs[4];
    assert.equal(rejected != null && 'code' in rejected ? rejected.reasons[0] : '', 'cannot fit resource');
    assert.equal(outs[1], outs[0], 'allocatable 0 needs what none needs: the same variant');
    assert.equal(outs[5], outs[0]);
    assert.notEqual(outs[2], outs[0]);
  });
});
