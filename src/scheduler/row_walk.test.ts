// The Filter walk and Score over the snapshot's packed rows (NodeResourcesFit's filterRows, the
// resource scorers' rows path) decide exactly as the walk over NodeInfo objects: same hosts, same
// feasible counts, same statuses and messages, with the same random draws.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Snapshot } from '../cache/snapshot.js';
import type { NodeInfo } from '../framework/node_info.js';
import { scalarNameBit, scalarNameHash, ScalarOnly } from '../framework/node_rows.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Pod, ResourceList } from '../api/types.js';
import { makeNode, makePod } from '../testing/builders.js';
import { seededRandom } from '../util/clock.js';
import type { AlgorithmState } from './schedule_pod.js';
import { clusterNodes, outcome, podRequests, resourcesFramework } from './test_helpers.js';

/**
 * Two snapshots of the same nodes: `packed` walks its rows; `loose` holds a list that is not the
 * packed one, so the walk and Score fall back to the NodeInfo objects.
 */
function twoSnapshots(nodes: Parameters<typeof Snapshot.fromObjects>[1]): { packed: Snapshot; loose: Snapshot } {
  const packed = Snapshot.fromObjects([], nodes);
  const loose = Snapshot.fromObjects([], nodes);
  loose.nodeInfoList = loose.nodeInfoList.slice();
  return { packed, loose };
}

/**
 * The same nodes scheduled twice, through the rows and through the NodeInfo objects (each side its
 * own framework and random source of the same seed), pod by pod.
 */
class RowsAgainstObjects {
  readonly byRows: Snapshot;
  readonly byObjects: Snapshot;
  readonly rowsSide = resourcesFramework();
  readonly objectsSide = resourcesFramework();
  private algRows: AlgorithmState;
  private algObjects: AlgorithmState;

  constructor(nodes: Parameters<typeof Snapshot.fromObjects>[1], seed: number) {
    ({ packed: this.byRows, loose: this.byObjects } = twoSnapshots(nodes));
    this.algRows = this.algorithm(seed, false);
    this.algObjects = this.algorithm(seed, false);
  }

  /** Both sides' algorithm state started over, with `recordScores`. */
  restart(seed: number, recordScores: boolean): void {
    this.algRows = this.algorithm(seed, recordScores);
    this.algObjects = this.algorithm(seed, recordScores);
  }

  private algorithm(seed: number, recordScores: boolean): AlgorithmState {
    return { nextStartNodeIndex: 0, percentageOfNodesToScore: 0, random: seededRandom(seed), tieBreakByName: false, recordScores };
  }

  /**
   * Schedules `pod` on both sides, which must decide alike (outcome and the next walk's start), and
   * assumes it on its host on both: the pod as assumed (its host in spec.nodeName), or null when
   * it was refused.
   */
  decide(pod: Pod, label: string): PodInfo | null {
    const got = outcome(this.algRows, this.rowsSide.fwk, this.byRows, pod);
    assert.equal(got, outcome(this.algObjects, this.objectsSide.fwk, this.byObjects, pod), label);
    assert.equal(this.algRows.nextStartNodeIndex, this.algObjects.nextStartNodeIndex);
    if (!got.includes('evaluated=')) return null;
    const host = got.split(' ')[0]!;
    const bound = new PodInfo({ ...pod, spec: { ...pod.spec, nodeName: host } });
    this.both(host, (ni) => ni.addPod(bound));
    return bound;
  }

  /** Changes node `name` alike on both sides. */
  both(name: string, change: (ni: NodeInfo) => void): void {
    change(this.byRows.get(name)!);
    change(this.byObjects.get(name)!);
  }
}

describe('the walk over the snapshot rows', () => {
  it('decides every pod as the walk over NodeInfo objects does, filtering only the refused nodes', () => {
    const random = seededRandom(27);
    const sides = new RowsAgainstObjects(clusterNodes(240, random), 3);
    for (const recordScores of [false, true]) {
      sides.restart(3, recordScores);
      let placed = 0;
      for (let i = 0; i < 150; i++) {
        // A placed pod is assumed on its host on both sides: later walks meet fuller rows.
        if (sides.decide(makePod(`p${recordScores}-${i}`, { requests: podRequests(i, random) }), `pod ${i}`) !== null) placed++;
      }
      assert.ok(placed > 50 && placed < 150, `some pods placed, some refused (${placed})`);
    }
    const { rowsSide, objectsSide } = sides;
    assert.ok(rowsSide.filterCalls() < objectsSide.filterCalls() / 2, `passing nodes read from rows (${rowsSide.filterCalls()} Filter calls against ${objectsSide.filterCalls()})`);
  });
});

describe('the walk over the snapshot rows, with blocks of rows kept between pods', () => {
  // Pods of two shapes in turn, so a block's kept verdicts and scores meet both the requests they
  // were made for and others; nodes fill, change size and lose pods between pods, so blocks change
  // under the kept answers. 203 nodes: the last block is partial.
  it('decides every pod as the walk over NodeInfo objects does', () => {
    const nodes = Array.from({ length: 203 }, (_, i) => makeNode(`b${String(i).padStart(3, '0')}`, {
      allocatable: { cpu: i % 10 === 0 ? '8' : '4', memory: '8Gi', pods: '6' },
    }));
    const sides = new RowsAgainstObjects(nodes, 8);
    const placed: PodInfo[] = [];
    for (let i = 0; i < 700; i++) {
      const requests: ResourceList = i % 5 === 4 ? { cpu: '1500m', memory: '2Gi' } : { cpu: '250m', memory: '512Mi' };
      const bound = sides.decide(makePod(`bp-${i}`, { requests }), `pod ${i}`);
      if (bound !== null) placed.push(bound);
      const node = nodes[(i * 37) % nodes.length]!;
      if (i % 7 === 3 && placed.length > 0) {
        const gone = placed.splice((i * 13) % placed.length, 1)[0]!;
        sides.both(gone.pod.spec.nodeName!, (ni) => ni.removePod(gone));
      } else if (i % 17 === 9) {
        const grown = { ...node, status: { ...node.status, allocatable: { ...node.status!.allocatable, cpu: i % 2 === 0 ? '16' : '2' } } };
        sides.both(node.metadata.name!, (ni) => ni.setNode(grown));
      }
    }
    assert.ok(placed.length > 300, `pods placed (${placed.length})`);
  });

  it('renews a block\'s stamp with every change to one of its rows', () => {
    const snapshot = Snapshot.fromObjects([], Array.from({ length: 40 }, (_, i) => makeNode(`s${i}`)));
    const rows = snapshot.rows;
    const [first, second] = snapshot.nodeInfoList as [NodeInfo, NodeInfo];
    const stamps = (): number[] => [0, 1, 2].map((b) => rows.blockStamp(b));
    let before = stamps();
    const changed = (what: string, block = 0): void => {
      const after = stamps();
      after.forEach((stamp, b) => (b === block ? assert.notEqual(stamp, before[b], what) : assert.equal(stamp, before[b], `${what}: block ${b} untouched`)));
      before = after;
    };
    assert.equal(rows.blockHasNodes(0), true);
    assert.equal(rows.blockHasNodes(2), false, 'a partial block (rows 32-39 of 40)');
    const p = new PodInfo(makePod('a', { node: 's0', requests: { cpu: '1' } }));
    first.addPod(p);
    changed('pod added');
    first.removePod(p);
    changed('pod removed');
    second.removeNode();
    changed('node removed');
    assert.equal(rows.blockHasNodes(0), false, 'a row without its Node');
    second.setNode(makeNode('s1'));
    changed('node set');
    assert.equal(rows.blockHasNodes(0), true);
    first.imageStates = new Map([['img', { size: 1, numNodes: 1 }]]);
    changed('images');
    (snapshot.nodeInfoList[20] as NodeInfo).copyFrom(first.clone());
    changed('copied in place', 1);
  });
});

describe('the walk over the snapshot rows, for pods asking for scalar resources', () => {
  // More names than a table keeps columns for, nodes advertising one or two, some with none;
  // pods fill the nodes, so most walks meet full nodes and nodes lacking the resource.
  const names = Array.from({ length: 40 }, (_, k) => `vendor.example/r-${k}`);
  function scalarNodes(count: number, random: () => number): Parameters<typeof Snapshot.fromObjects>[1] {
    return Array.from({ length: count }, (_, i) => {
      const allocatable: ResourceList = { cpu: '8', memory: '16Gi', pods: '20' };
      if (i % 9 !== 0) allocatable[names[Math.floor(random() * names.length)]!] = `${1 + Math.floor(random() * 3)}`;
      if (i % 4 === 0) allocatable[names[i % 3]!] = '2';
      return makeNode(`s${String(i).padStart(3, '0')}`, { allocatable });
    });
  }

  it('decides every pod as the walk over NodeInfo objects does, full nodes rejected from their rows', () => {
    const random = seededRandom(41);
    const sides = new RowsAgainstObjects(scalarNodes(200, random), 4);
    let placed = 0;
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      const requests: ResourceList = { cpu: '100m', memory: '64Mi', [names[i % 3 === 0 ? i % 3 : Math.floor(random() * names.length)]!]: '1' };
      if (i % 17 === 0) requests[names[Math.floor(random() * names.length)]!] = '2';
      if (i % 23 === 0) requests.cpu = '9';
      if (sides.decide(makePod(`sp-${i}`, { requests }), `pod ${i}`) === null) {
        refused++;
        continue;
      }
      placed++;
      if (i % 10 === 0) {
        // A node's devices change (its kubelet reports another count): the rows must read it again.
        const changed = sides.byRows.nodeInfoList[(i * 7) % sides.byRows.nodeInfoList.length]!.node!;
        const grown = { ...changed, status: { ...changed.status, allocatable: { ...changed.status!.allocatable, [names[i % 40]!]: '3' } } };
        sides.both(changed.metadata.name!, (ni) => ni.setNode(grown));
      }
    }
    const { rowsSide, objectsSide } = sides;
    assert.ok(placed > 100 && refused > 20, `pods placed (${placed}) and refused (${refused})`);
    assert.ok(rowsSide.filterCalls() < objectsSide.filterCalls() / 4, `rows decide most nodes (${rowsSide.filterCalls()} Filter calls against ${objectsSide.filterCalls()})`);
  });

  it('refuses from the rows every node whose only resource is another one (a resource per node)', () => {
    // As upstream's SchedulingWithExtendedResource: node i alone has foo.com/bar-i, pod i asks for
    // it; 300 names, far more than a table keeps columns for. Some nodes also list zero amounts.
    const count = 300;
    const nodes = Array.from({ length: count }, (_, i) => {
      const allocatable: ResourceList = { cpu: '4', memory: '8Gi', pods: '10', [`foo.com/bar-${i}`]: '1' };
      if (i % 5 === 0) allocatable['hugepages-2Mi'] = '0';
      return makeNode(`e${String(i).padStart(3, '0')}`, { allocatable });
    });
    const sides = new RowsAgainstObjects(nodes, 6);
    let placed = 0;
    // Every pod twice: the second finds its node full.
    for (let i = 0; i < 2 * count; i++) {
      if (sides.decide(makePod(`ep-${i}`, { requests: { cpu: '100m', [`foo.com/bar-${(i * 7) % count}`]: '1' } }), `pod ${i}`) !== null) placed++;
    }
    const { rowsSide, objectsSide } = sides;
    assert.equal(placed, count, 'each node takes its own pod once');
    // Only the node with the pod's name (at most one a pod) meets Filter: no hash-bit neighbours.
    assert.ok(rowsSide.filterCalls() <= 2 * count, `one node a pod at most (${rowsSide.filterCalls()} Filter calls against ${objectsSide.filterCalls()})`);
  });
});

describe('NodeRows.scalarOnly', () => {
  it('names the one scalar resource a node has a nonzero amount of, allocatable or requested', () => {
    const snapshot = Snapshot.fromObjects(
      // A pod bound where its resource is not advertised (as kubelet admission would refuse, but the cache keeps it).
      [makePod('x', { node: 'n2', requests: { 'example.com/x': '1' } })],
      [
        makeNode('n0', { allocatable: { 'example.com/gpu': '2', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0' } }),
        makeNode('n1', { allocatable: { 'hugepages-1Gi': '0' } }),
        makeNode('n2', { allocatable: { 'example.com/gpu': '2' } }),
        makeNode('n3', { allocatable: { 'hugepages-1Gi': '0' } }),
      ],
    );
    const rows = snapshot.rows;
    assert.equal(rows.scalarOnly(0), scalarNameHash('example.com/gpu'), 'zero amounts do not count');
    assert.equal(rows.scalarOnly(1), ScalarOnly.None, 'only zero amounts');
    assert.equal(rows.scalarOnly(2), ScalarOnly.Several, 'one advertised, another requested');
    const n3 = snapshot.nodeInfoList[3] as NodeInfo;
    n3.addPod(new PodInfo(makePod('y', { node: 'n3', requests: { 'example.com/x': '1' } })));
    assert.equal(rows.scalarOnly(3), scalarNameHash('example.com/x'), 'a requested amount counts');
    n3.removePod(new PodInfo(makePod('y', { node: 'n3', requests: { 'example.com/x': '1' } })));
    assert.equal(rows.scalarOnly(3), ScalarOnly.None, 'back to zero');
  });
});

describe('the reused feasible list', () => {
  it('is scored from the objects after a walk that had no rows, not from an earlier walk\'s rows', () => {
    const random = seededRandom(5);
    const nodes = clusterNodes(120, random);
    const { packed, loose } = twoSnapshots(nodes);
    // The packed snapshot's nodes are fuller: its rows would score the same nodes differently.
    for (const ni of packed.nodeInfoList) ni.addPod(new PodInfo(makePod(`x-${ni.name}`, { node: ni.name, requests: { cpu: '500m', memory: '512Mi' } })));
    const side = resourcesFramework();
    const shared: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 0, random: seededRandom(9), tieBreakByName: false, recordScores: true };
    for (let i = 0; i < 20; i++) {
      const pod = makePod(`q-${i}`, { requests: { cpu: '100m', memory: '64Mi' } });
      outcome(shared, side.fwk, packed, pod);
      const fresh: AlgorithmState = { ...shared, random: seededRandom(100 + i), feasibleRows: undefined, feasibleBuffer: undefined, totalsBuffer: undefined };
      shared.random = seededRandom(100 + i);
      const want = outcome(fresh, side.fwk, loose, pod);
      assert.equal(outcome(shared, side.fwk, loose, pod), want, `pod ${i}`);
    }
  });
});

describe('NodeRows', () => {
  it('reads by position what each NodeInfo getter reads, through pod and node changes', () => {
    const snapshot = Snapshot.fromObjects(
      [makePod('a', { node: 'n1', requests: { cpu: '500m', memory: '1Gi' } }), makePod('b', { node: 'n1' })],
      [makeNode('n0', { allocatable: { cpu: '2', memory: '4Gi', pods: '3', 'ephemeral-storage': '5Gi' } }), makeNode('n1')],
    );
    const rows = snapshot.rows;
    const check = (when: string) => {
      assert.ok(rows.covers(snapshot.nodeInfoList), when);
      snapshot.nodeInfoList.forEach((ni, at) => {
        const pairs: [string, number | boolean, number | boolean][] = [
          ['hasNode', rows.hasNode(at), ni.node !== null],
          ['generation', rows.generation(at), ni.generation],
          ['podCount', rows.podCount(at), ni.podCount],
          ['allowedPodNumber', rows.allowedPodNumber(at), ni.allowedPodNumber],
          ['allocatableMilliCPU', rows.allocatableMilliCPU(at), ni.allocatableMilliCPU],
          ['allocatableMemory', rows.allocatableMemory(at), ni.allocatableMemory],
          ['allocatableEphemeralStorage', rows.allocatableEphemeralStorage(at), ni.allocatableEphemeralStorage],
          ['requestedMilliCPU', rows.requestedMilliCPU(at), ni.requestedMilliCPU],
          ['requestedMemory', rows.requestedMemory(at), ni.requestedMemory],
          ['requestedEphemeralStorage', rows.requestedEphemeralStorage(at), ni.requestedEphemeralStorage],
          ['nonZeroRequestedMilliCPU', rows.nonZeroRequestedMilliCPU(at), ni.nonZeroRequestedMilliCPU],
          ['nonZeroRequestedMemory', rows.nonZeroRequestedMemory(at), ni.nonZeroRequestedMemory],
        ];
        for (const [name, row, object] of pairs) assert.equal(row, object, `${when}: ${ni.name} ${name}`);
      });
    };
    check('packed');
    const [n0, n1] = snapshot.nodeInfoList as [NodeInfo, NodeInfo];
    n0.addPod(new PodInfo(makePod('c', { node: 'n0', requests: { cpu: '1', 'ephemeral-storage': '1Gi' } })));
    check('pod added');
    n1.removePod(new PodInfo(makePod('a', { node: 'n1' })));
    check('pod removed');
    n0.copyFrom(n1.clone());
    check('copied in place');
    n1.removeNode();
    check('node removed');
    assert.equal(rows.hasNode(1), false);
    assert.equal(rows.covers(snapshot.nodeInfoList.slice()), false, 'another list');
  });

  it('keeps each row\'s scalar names and reads a scalar column again only for changed rows', () => {
    const snapshot = Snapshot.fromObjects(
      [makePod('g', { node: 'n1', requests: { 'example.com/gpu': '1' } })],
      [makeNode('n0', { allocatable: { 'example.com/gpu': '4' } }), makeNode('n1', { allocatable: { 'example.com/gpu': '2', 'hugepages-2Mi': '1Gi' } }), makeNode('n2')],
    );
    const rows = snapshot.rows;
    const gpu = scalarNameBit('example.com/gpu');
    assert.ok(Number.isInteger(gpu) && gpu > 0 && gpu <= 2 ** 29, 'a small integer');
    assert.notEqual(rows.scalarNames(0) & gpu, 0);
    assert.equal(rows.scalarNames(1) & (gpu | scalarNameBit('hugepages-2Mi')), gpu | scalarNameBit('hugepages-2Mi'));
    assert.equal(rows.scalarNames(2), 0, 'no scalar resource at all');
    assert.equal(rows.scalarOnly(0), scalarNameHash('example.com/gpu'), 'one name: its hash');
    assert.equal(rows.scalarOnly(1), ScalarOnly.Several);
    assert.equal(rows.scalarOnly(2), ScalarOnly.None);
    const column = rows.scalarColumn('example.com/gpu')!;
    assert.equal(rows.scalarColumn('example.com/gpu'), column, 'one column per name');
    const read = (at: number): [number, number] => {
      column.sync(rows, at);
      return [column.allocatable[at]!, column.requested[at]!];
    };
    assert.deepEqual([read(0), read(1), read(2)], [[4, 0], [2, 1], [0, 0]]);
    const [n0] = snapshot.nodeInfoList as [NodeInfo];
    n0.addPod(new PodInfo(makePod('h', { node: 'n0', requests: { 'example.com/gpu': '3' } })));
    assert.deepEqual(read(0), [4, 3], 'a pod added is read again');
    assert.equal(rows.scalarOnly(0), scalarNameHash('example.com/gpu'), 'still its only name');
    for (let k = 0; k < 20; k++) rows.scalarColumn(`example.com/other-${k}`);
    assert.equal(rows.scalarColumn('example.com/last'), null, 'a table keeps a bounded number of columns');
  });
});
