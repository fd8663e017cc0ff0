// Scenarios of upstream's imagelocality/image_locality_test.go.
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Node, Pod } from '../../api/types.js';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import { anyNodeInfoHadImages } from '../../framework/node_info.js';
import type { NodeScore } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod_info.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { ImageLocality, calculatePriority, createImageExistenceMap, fillImageStates, imageLocalityDefinition, normalizedImageName } from './index.js';

const mb = 1024 * 1024;

const imageNode = (name: string, images: { names: string[]; sizeBytes: number }[]): Node => makeNode(name, { images });

const node403002000 = [
  { names: ['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], sizeBytes: 40 * mb },
  { names: ['gcr.io/300:latest', 'gcr.io/300:v1'], sizeBytes: 300 * mb },
  { names: ['gcr.io/2000:latest'], sizeBytes: 2000 * mb },
];
const node25010 = [
  { names: ['gcr.io/250:latest'], sizeBytes: 250 * mb },
  { names: ['gcr.io/10:latest', 'gcr.io/10:v1'], sizeBytes: 10 * mb },
];

const containers = (...images: string[]): Container[] => images.map((image, i) => ({ name: `c${i}`, image }));
const podWithImages = (images: string[], initImages: string[] = []): Pod =>
  makePod('p', { spec: { containers: containers(...images), ...(initImages.length ? { initContainers: containers(...initImages) } : {}) } });

describe('ImageLocality Score', () => {
  const cases: { name: string; pod: Pod; nodes: Node[]; want: NodeScore[] }[] = [
    {
      // machine1: 40MB/2 spread < 23MB -> 0; machine2: 100 * (250MB/2 - 23MB) / (2 * 1000MB - 23MB) = 5.
      name: 'two images spread on two nodes, prefer the larger image one',
      pod: podWithImages(['gcr.io/40', 'gcr.io/250']),
      nodes: [imageNode('machine1', node403002000), imageNode('machine2', node25010)],
      want: [{ name: 'machine1', score: 0 }, { name: 'machine2', score: 5 }],
    },
    {
      // machine1: 100 * ((40MB + 300MB)/2 - 23MB) / (2000MB - 23MB) = 7.
      name: 'two images on one node, prefer this node',
      pod: podWithImages(['gcr.io/40', 'gcr.io/300']),
      nodes: [imageNode('machine1', node403002000), imageNode('machine2', node25010)],
      want: [{ name: 'machine1', score: 7 }, { name: 'machine2', score: 0 }],
    },
    {
      // machine1: 100 * (2000MB/2 - 23MB) / (2000MB - 23MB) = 49; machine2: 10MB/2 < 23MB -> 0.
      name: 'an image larger than the per-container threshold',
      pod: podWithImages(['gcr.io/10', 'gcr.io/2000']),
      nodes: [imageNode('machine1', node403002000), imageNode('machine2', node25010)],
      want: [{ name: 'machine1', score: 49 }, { name: 'machine2', score: 0 }],
    },
    {
      // machine1: 100 * (2000MB/3 - 23MB) / (2000MB - 23MB) = 32.
      name: 'spread counts nodes without images',
      pod: podWithImages(['gcr.io/10', 'gcr.io/2000']),
      nodes: [imageNode('machine1', node403002000), imageNode('machine2', node25010), imageNode('machine3', [])],
      want: [{ name: 'machine1', score: 32 }, { name: 'machine2', score: 0 }, { name: 'machine3', score: 0 }],
    },
    {
      name: 'init container images count, and the number of containers includes them',
      pod: podWithImages(['gcr.io/40'], ['gcr.io/300']),
      nodes: [imageNode('machine1', node403002000), imageNode('machine2', node25010)],
      want: [{ name: 'machine1', score: 7 }, { name: 'machine2', score: 0 }],
    },
    {
      // As the init container case: an image volume's image is summed and counted (v1.37's sumImageScores).
      name: 'an image volume counts as an image, and towards the number of images',
      pod: makePod('p', { spec: { containers: containers('gcr.io/40'), volumes: [{ name: 'data', image: { reference: 'gcr.io/300' } }] as unknown as Pod['spec']['volumes'] } }),
      nodes: [imageNode('machine1', node403002000), imageNode('machine2', node25010)],
      want: [{ name: 'machine1', score: 7 }, { name: 'machine2', score: 0 }],
    },
    {
      // One container: 100 * (250MB - 23MB) / (1000MB - 23MB) = 23 when on every node, 14 on 2 of 3.
      name: 'an image on more nodes scores higher',
      pod: podWithImages(['gcr.io/250:latest']),
      nodes: [imageNode('a', node25010), imageNode('b', node25010), imageNode('c', [])],
      want: [{ name: 'a', score: 14 }, { name: 'b', score: 14 }, { name: 'c', score: 0 }],
    },
    {
      name: 'a tagged image must match the tag',
      pod: podWithImages(['gcr.io/300:v2']),
      nodes: [imageNode('machine1', node403002000), imageNode('machine2', node25010)],
      want: [{ name: 'machine1', score: 0 }, { name: 'machine2', score: 0 }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const snapshot = Snapshot.fromObjects([], c.nodes);
      fillImageStates(snapshot.list());
      const handle = newTestHandle({ snapshot });
      const pl = imageLocalityDefinition.factory(undefined, handle, defaultFeatures) as ImageLocality;
      const pod = new PodInfo(c.pod);
      const got: NodeScore[] = [];
      for (const ni of snapshot.list()) {
        const s = pl.score(new CycleState(), pod, ni);
        assert.equal(typeof s, 'number');
        got.push({ name: ni.name, score: s as number });
      }
      assert.deepEqual(got, c.want);
      assert.equal(pl.scoreExtensions(), null);
    });
  }
  it('scores every node alike (without a Score walk) only when none of them has images', () => {
    const snapshot = Snapshot.fromObjects([], [imageNode('machine1', node403002000), imageNode('machine2', []), imageNode('machine3', [])]);
    fillImageStates(snapshot.list());
    assert.equal(anyNodeInfoHadImages(), true);
    const pl = imageLocalityDefinition.factory(undefined, newTestHandle({ snapshot }), defaultFeatures) as ImageLocality;
    const pod = new PodInfo(podWithImages(['gcr.io/40']));
    const [withImages, a, b] = snapshot.list();
    assert.equal(pl.uniformScore(new CycleState(), pod, [a!, withImages!, b!]), null);
    assert.equal(pl.uniformScore(new CycleState(), pod, [a!, b!]), calculatePriority(0, 1));
  });
  it('a pod without containers scores 0', () => {
    assert.equal(calculatePriority(0, 0), 0);
  });
});

describe('normalizedImageName', () => {
  const digest = 'sha256:' + 'a'.repeat(64);
  const cases = [
    { name: 'adds :latest without a tag', input: 'root', want: 'root:latest' },
    { name: 'adds :latest when the only colon is a registry port', input: 'gcr.io:5000/root', want: 'gcr.io:5000/root:latest' },
    { name: 'keeps a tag', input: 'root:tag', want: 'root:tag' },
    { name: 'keeps a digest', input: `root@${digest}`, want: `root@${digest}` },
  ];
  for (const c of cases) it(c.name, () => assert.equal(normalizedImageName(c.input), c.want));
});

describe('image states', () => {
  it('counts the nodes reporting each name and keeps every name of an image', () => {
    const nodes = [imageNode('a', node403002000), imageNode('b', [{ names: ['gcr.io/40:latest'], sizeBytes: 41 * mb }])];
    const existence = createImageExistenceMap(nodes);
    assert.deepEqual([...existence.get('gcr.io/40:latest')!].sort(), ['a', 'b']);
    assert.deepEqual([...existence.get('gcr.io/40:v1')!], ['a']);
    const snapshot = Snapshot.fromObjects([], nodes);
    fillImageStates(snapshot.list());
    assert.deepEqual(snapshot.get('a')!.imageStates.get('gcr.io/40:latest'), { size: 40 * mb, numNodes: 2 });
    assert.deepEqual(snapshot.get('b')!.imageStates.get('gcr.io/40:latest'), { size: 41 * mb, numNodes: 2 });
    assert.deepEqual(snapshot.get('a')!.imageStates.get('gcr.io/2000:latest'), { size: 2000 * mb, numNodes: 1 });
    assert.equal(snapshot.get('b')!.imageStates.size, 1);
  });
});
