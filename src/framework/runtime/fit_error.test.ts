// FitError's message and Diagnosis bookkeeping (framework/types.go FitError.Error, AddPluginStatus).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makePod } from '../../testing/builders.js';
import { Diagnosis, FitError } from './fit_error.js';
import { NodeToStatus } from '../node_to_status.js';
import { Code, Status } from '../status.js';

function diagnosis(entries: [string, Status][]): Diagnosis {
  const d = new Diagnosis();
  for (const [n, s] of entries) d.nodeToStatus.set(n, s);
  return d;
}
const u = (plugin: string, ...reasons: string[]) => Status.unschedulable(...reasons).withPlugin(plugin);

describe('FitError message', () => {
  it('counts each reason over nodes and sorts "N reason" as strings', () => {
    const entries: [string, Status][] = [];
    for (let i = 0; i < 13; i++) entries.push([`a${i}`, u('NodeResourcesFit', 'Insufficient cpu')]);
    entries.push(['b1', u('TaintToleration', "node(s) had untolerated taint {dedicated: team-a}")]);
    entries.push(['b2', u('TaintToleration', "node(s) had untolerated taint {dedicated: team-a}")]);
    entries.push(['c1', u('NodeResourcesFit', 'Insufficient cpu', 'Insufficient memory')]);
    const fe = new FitError(makePod('p'), 16, diagnosis(entries));
    // "14 ..." sorts before "2 ..." byte-wise, and "Insufficient" (uppercase) before "node(s)".
    assert.equal(fe.message, "0/16 nodes are available: 1 Insufficient memory, 14 Insufficient cpu, 2 node(s) had untolerated taint {dedicated: team-a}.");
  });

  it('uses the PreFilter message instead of per-node reasons', () => {
    const d = new Diagnosis();
    d.preFilterMsg = "node(s) didn't match pod topology spread constraints (missing required label)";
    d.nodeToStatus.absentNodesStatus = Status.unresolvable(d.preFilterMsg);
    const fe = new FitError(makePod('p'), 3, d);
    assert.equal(fe.message, "0/3 nodes are available: node(s) didn't match pod topology spread constraints (missing required label).");
  });

  it('appends the PostFilter message as it is, without a period of its own', () => {
    const d = diagnosis([['n1', u('NodeResourcesFit', 'Insufficient cpu')]]);
    d.postFilterMsg = 'preemption: not eligible due to preemptionPolicy=Never.';
    assert.equal(new FitError(makePod('p'), 1, d).message, '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.');
  });

  it('counts nodes outside the PreFilter subset with the absent-node status', () => {
    const d = diagnosis([['n1', u('NodeResourcesFit', 'Insufficient cpu')]]);
    d.nodeToStatus.absentNodesStatus = Status.unresolvable("node(s) didn't satisfy plugin(s) [NodeAffinity]");
    assert.equal(new FitError(makePod('p'), 4, d).message, "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity].");
  });

  it('an absent-node status without reasons adds nothing', () => {
    const d = diagnosis([['n1', u('X', 'r')]]);
    assert.equal(new FitError(makePod('p'), 5, d).message, '0/5 nodes are available: 1 r.');
  });

  it('is a real Error with the derived message', () => {
    const fe = new FitError(makePod('p'), 0, new Diagnosis());
    assert.ok(fe instanceof Error);
    assert.equal(fe.message, '0/0 nodes are available:');
  });
});

describe('Diagnosis.addPluginStatus', () => {
  it('records rejecting plugins; Pending goes to both sets; statuses without a plugin are ignored', () => {
    const d = new Diagnosis();
    d.addPluginStatus(u('A', 'x'));
    d.addPluginStatus(Status.unresolvable('y').withPlugin('B'));
    d.addPluginStatus(Status.pending('z').withPlugin('C'));
    d.addPluginStatus(Status.unschedulable('no plugin'));
    d.addPluginStatus(Status.error('boom').withPlugin('D'));
    assert.deepEqual([...d.unschedulablePlugins].sort(), ['A', 'B', 'C']);
    assert.deepEqual([...d.pendingPlugins], ['C']);
    assert.equal(Status.pending('z').code, Code.Pending);
  });

  it('records a plugin again after another one, whatever the walk repeated between', () => {
    const d = new Diagnosis();
    for (let i = 0; i < 3; i++) d.addPluginStatus(u('A', 'x'));
    d.addPluginStatus(Status.pending('p').withPlugin('A'));
    d.addPluginStatus(u('B', 'y'));
    d.addPluginStatus(u('A', 'x'));
    assert.deepEqual([...d.unschedulablePlugins].sort(), ['A', 'B']);
    assert.deepEqual([...d.pendingPlugins], ['A'], 'the same plugin with another code is recorded');
  });
});

describe('NodeToStatus', () => {
  it('appends cheaply, then answers lookups; repeats replace once allowed', () => {
    const m = new NodeToStatus();
    m.append('a', Status.unschedulable('x'));
    m.append('b', Status.unschedulable('y'));
    assert.equal(m.size, 2);
    assert.equal(m.get('a').message(), 'x');
    assert.equal(m.get('zzz'), m.absentNodesStatus);
    m.append('a', Status.unschedulable('z'));
    assert.equal(m.size, 2, 'after a lookup, an append of a known node replaces it');
    assert.equal(m.get('a').message(), 'z');
    const n = new NodeToStatus();
    n.append('a', Status.unschedulable('x'));
    n.allowRepeats();
    n.append('a', Status.unschedulable('again'));
    assert.equal(n.size, 1);
    assert.deepEqual([...n.entries()].map(([k, s]) => [k, s.message()]), [['a', 'again']]);
  });
});
