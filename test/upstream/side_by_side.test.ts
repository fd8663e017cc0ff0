import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replaceBlock } from '../bench/docs_block.js';
import { renderMarkdown, renderText, type Row } from './side_by_side.js';

const basic = (cpus: number | undefined, ours: number, upstream: number): Row => ({
  name: 'SchedulingBasic/5000Nodes_10000Pods',
  ours: { pods: 10000, average: ours, load: 0.5 },
  upstream: { pods: 10000, average: upstream, load: 1.25 },
  ...(cpus === undefined ? {} : { cpus }),
});

describe('bench:upstream tables', () => {
  it('puts the ratio and both loads beside each unpinned workload', () => {
    const md = renderMarkdown([{ measuredAt: '2026-11-28T09:00:00Z', node: '20.20.2', machine: '2 × EPYC', workloads: [basic(undefined, 8000, 200)] }]);
    assert.match(md, /\(2026-11-28, Node 20\.20\.2, 2 × EPYC\)/);
    assert.match(md, /^\| workload \| ours pods\/s \| upstream pods\/s \| ours \/ upstream \| load \(ours, upstream\) \|$/m);
    assert.match(md, /^\| SchedulingBasic\/5000Nodes_10000Pods \| 8000\.0 \| 200\.0 \| 40\.0x \| 0\.5, 1\.3 \|$/m);
  });

  it('shows how each side scales against its own figure on the fewest cores', () => {
    const md = renderMarkdown([{ workloads: [basic(1, 6000, 100), basic(2, 7500, 180)] }]);
    assert.match(md, /^\| SchedulingBasic\/5000Nodes_10000Pods \| 1 \| 6000\.0 \| 100\.0 \| 60\.0x \| 1\.00x \| 1\.00x \| 0\.5, 1\.3 \|$/m);
    assert.match(md, /^\| SchedulingBasic\/5000Nodes_10000Pods \| 2 \| 7500\.0 \| 180\.0 \| 41\.7x \| 1\.25x \| 1\.80x \| 0\.5, 1\.3 \|$/m);
  });

  it('leaves the ratio and scaling empty where a side failed, and says why under the table', () => {
    const failed: Row = { ...basic(2, 7500, 0), upstream: { pods: 10000, average: 0, error: 'exit 1: no output' } };
    const md = renderMarkdown([{ workloads: [basic(1, 6000, 100), failed] }]);
    assert.match(md, /^\| SchedulingBasic\/5000Nodes_10000Pods \| 2 \| 7500\.0 \| failed \| {2}\| 1\.25x \| {2}\| 0\.5, - \|$/m);
    assert.match(md, /^\* SchedulingBasic\/5000Nodes_10000Pods \(2 cores\): upstream: exit 1: no output$/m);
    assert.match(renderText([failed]), /upstream: exit 1: no output/);
  });

  it('replaces only what lies between its markers, and refuses a file without them', () => {
    const text = 'intro\n<!-- t start -->\nold\nlines\n<!-- t end -->\noutro\n';
    assert.equal(replaceBlock(text, 't', 'new\n\n'), 'intro\n<!-- t start -->\nnew\n<!-- t end -->\noutro\n');
    assert.throws(() => replaceBlock('no block', 't', 'x', 'README.md'), /README\.md has no "<!-- t start -->"/);
  });
});
