// The generator of the differential test: the same arguments give the same scenario, every
// family loads through our scenario reader, and each scenario keeps the rules that make
// upstream's answer unique (see generator.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/api/types.js';
import { scenarioFromDocuments } from '../../src/sim/scenario/scenario.js';
import { createAfterMembers } from '../../src/sim/explain/tree_roots.js';
import { families, generateScenario } from './generator.js';

describe('differential test generator', () => {
  it('gives the same scenario for the same seed and index, another for another seed', () => {
    assert.deepEqual(generateScenario(7, 3, 'mixed'), generateScenario(7, 3, 'mixed'));
    assert.notDeepEqual(generateScenario(7, 3, 'mixed').nodes, generateScenario(8, 3, 'mixed').nodes);
  });

  for (const family of families) {
    it(`${family}: loads as a scenario and keeps upstream's answer unique`, () => {
      for (let index = 0; index < 5; index++) {
        const generated = generateScenario(11, index, family);
        // run.ts hands ours the scenario as a JSON file: these values, loaded without parsing text.
        const sc = scenarioFromDocuments([structuredClone(generated)], `${family}-${index}`);
        assert.equal(sc.metadata.family, family);
        assert.ok(sc.nodes.length > 0 && sc.nodes.length < 100, 'fewer than 100 nodes: every node is evaluated');
        assert.ok(sc.pending.length > 0, 'pods to schedule');
        const starts = sc.pods.map((p) => p.status?.startTime);
        assert.ok(starts.every((t) => typeof t === 'string'), 'every existing pod has a start time');
        assert.equal(new Set(starts).size, starts.length, 'start times are distinct');
        const preemption = !JSON.stringify(sc.config).includes('DefaultPreemption');
        if (preemption) assert.ok(sc.pending.every((p) => !p.spec.nodeName), 'no pending pod names a node where preemption runs');
        assertUnboundClaimsUsedOnce(sc.pending, sc.objects as { kind?: string; metadata?: { name?: string }; spec?: { volumeName?: string } }[]);
      }
    });
  }

  it('workload: topology constraints only when asked, on up to three racks', () => {
    const constrained = (g: ReturnType<typeof generateScenario>) =>
      (g.objects as { kind?: string; spec?: { schedulingConstraints?: unknown } }[]).filter((o) => o.kind === 'PodGroup' && o.spec?.schedulingConstraints !== undefined);
    const racks = new Set<string>();
    let groups = 0;
    for (let index = 0; index < 20; index++) {
      assert.equal(constrained(generateScenario(11, index, 'workload')).length, 0);
      const g = generateScenario(11, index, 'workload', { topology: true });
      groups += constrained(g).length;
      for (const n of g.nodes as { metadata: { labels: Record<string, string> } }[]) {
        const rack = n.metadata.labels['example.com/rack'];
        if (rack !== undefined) racks.add(rack);
      }
    }
    assert.ok(groups > 0, 'some groups are constrained');
    assert.deepEqual([...racks].sort(), ['rack-1', 'rack-2', 'rack-3']);
  });

  it('workload with composites: a tree and its members share the root class; bound victim trees appear with priorities', () => {
    type Obj = { kind?: string; metadata: { name: string }; spec: { priorityClassName?: string; parentCompositePodGroupName?: string; schedulingGroup?: { podGroupName: string } } };
    let trees = 0;
    let victimTrees = 0;
    for (let index = 0; index < 20; index++) {
      const g = generateScenario(11, index, 'workload', { topology: true, composites: true });
      const objects = (g.objects as Obj[]).filter((o) => o.kind === 'PodGroup' || o.kind === 'CompositePodGroup');
      const byName = new Map(objects.filter((o) => o.kind === 'PodGroup' || o.kind === 'CompositePodGroup').map((o) => [`${o.kind}/${o.metadata.name}`, o]));
      const rootOf = (o: Obj): Obj => {
        const parent = o.spec.parentCompositePodGroupName;
        return parent === undefined ? o : rootOf(byName.get(`CompositePodGroup/${parent}`)!);
      };
      for (const o of byName.values()) if (o.kind === 'CompositePodGroup' && o.spec.parentCompositePodGroupName === undefined) trees++;
      for (const pod of [...(g.pods as Obj[]), ...(g.pending as Obj[])]) {
        const group = byName.get(`PodGroup/${pod.spec.schedulingGroup?.podGroupName ?? ''}`);
        if (group?.spec.parentCompositePodGroupName === undefined) continue;
        const cls = rootOf(group).spec.priorityClassName;
        assert.equal(group.spec.priorityClassName, cls, `${group.metadata.name} takes its root's class`);
        assert.equal(pod.spec.priorityClassName, cls, `${pod.metadata.name} takes its root's class`);
      }
      if (byName.has('CompositePodGroup/old-tree')) victimTrees++;
    }
    assert.ok(trees > 0 && victimTrees > 0, `trees (${trees}) and victim trees (${victimTrees})`);
  });

  it('workload with composites: some trees hold a group back until their members wait, and a child whose members run is one of them', () => {
    type Obj = { kind?: string; metadata: { name: string; annotations?: Record<string, string> }; spec: { parentCompositePodGroupName?: string; nodeName?: string; schedulingGroup?: { podGroupName: string } } };
    let held = 0;
    let runningHeld = 0;
    for (let index = 0; index < 20; index++) {
      const g = generateScenario(11, index, 'workload', { topology: true, composites: true });
      const late = (g.objects as Obj[]).filter((o) => o.metadata.annotations?.[createAfterMembers] === 'true');
      for (const o of late) {
        assert.ok(o.kind === 'PodGroup' || o.kind === 'CompositePodGroup', `${o.metadata.name} is a group`);
        held++;
        if (!o.metadata.name.includes('-running')) continue;
        runningHeld++;
        // Its members (or its child's) already run, so no pending member joins when it arrives.
        const members = (g.pods as Obj[]).filter((p) => p.spec.schedulingGroup?.podGroupName.startsWith(o.metadata.name));
        assert.ok(members.length > 0 && members.every((p) => p.spec.nodeName !== undefined), `${o.metadata.name}'s members are bound`);
        assert.ok(!(g.pending as Obj[]).some((p) => p.spec.schedulingGroup?.podGroupName.startsWith(o.metadata.name)));
      }
    }
    assert.ok(held > runningHeld && runningHeld > 0, `held back: ${held}, with running members: ${runningHeld}`);
  });

  it('workload with composites under pressure: the low tree holds 60% of every node, and the first tree, a gang of all its children, starts with one too big for what is left', () => {
    type Obj = { kind?: string; metadata: { name: string }; spec: Record<string, unknown> & { nodeName?: string; parentCompositePodGroupName?: string; containers?: { resources: { requests: { cpu: string } } }[] }; status: { allocatable?: { cpu: string }; capacity: { cpu: string } } };
    const milli = (q: string) => (q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000);
    const requested = (p: Obj) => milli(p.spec.containers![0]!.resources.requests.cpu);
    let pressured = 0;
    for (let index = 0; index < 40; index++) {
      const g = generateScenario(11, index, 'workload', { topology: true, composites: true });
      const nodes = g.nodes as Obj[];
      const old = (g.pods as Obj[]).filter((p) => p.metadata.name.startsWith('old-tree-'));
      if (old.length !== nodes.length) continue;
      pressured++;
      const cpu = new Map(nodes.map((n) => [n.metadata.name, milli((n.status.allocatable ?? n.status.capacity).cpu)]));
      for (const p of old) assert.ok(requested(p) >= cpu.get(p.spec.nodeName!)! * 0.55, `${p.metadata.name} holds most of ${p.spec.nodeName}`);
      assert.deepEqual(new Set(old.map((p) => p.spec.nodeName)).size, nodes.length, 'one low-tree member on every node');
      const biggest = Math.max(...cpu.values());
      const big = (g.pending as Obj[]).filter((p) => p.metadata.name.startsWith('tree-0-0-m'));
      assert.ok(big.length >= 1 && big.length <= 2, `one or two big members in gen ${index}`);
      for (const p of big) assert.ok(requested(p) > biggest * 0.4, `${p.metadata.name} needs more than any node has left`);
      const objects = (g.objects as Obj[]).filter((o) => o.kind === 'PodGroup' || o.kind === 'CompositePodGroup');
      const children = objects.filter((o) => o.spec.parentCompositePodGroupName === 'tree-0').length;
      assert.deepEqual(objects.find((o) => o.kind === 'CompositePodGroup' && o.metadata.name === 'tree-0')!.spec.schedulingPolicy, { gang: { minGroupCount: children } });
    }
    assert.ok(pressured > 0, 'some scenarios are under pressure');
  });

  it('dra: every claim a pod names exists, existing pods hold allocated devices of their node, and the family covers the DRA API', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 40; index++) {
      const generated = generateScenario(3, index, 'dra');
      const sc = scenarioFromDocuments([structuredClone(generated)], `dra-${index}`);
      const objects = sc.objects as DraObject[];
      const named = (kind: string) => new Set(objects.filter((o) => o.kind === kind).map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`));
      const claims = named('ResourceClaim');
      const templates = named('ResourceClaimTemplate');
      const devices = new Set(objects.filter((o) => o.kind === 'ResourceSlice').flatMap((o) => (o.spec.devices ?? []).map((d) => `${o.spec.driver}/${o.spec.pool?.name}/${d.name}`)));
      for (const p of [...sc.pods, ...sc.pending]) {
        const ns = p.metadata.namespace ?? 'default';
        for (const entry of p.spec.resourceClaims ?? []) {
          if (entry.resourceClaimName) assert.ok(claims.has(`${ns}/${entry.resourceClaimName}`), `${p.metadata.name}: claim ${entry.resourceClaimName} exists (else PreEnqueue holds the pod)`);
          else assert.ok(templates.has(`${ns}/${entry.resourceClaimTemplateName}`), `${p.metadata.name}: template ${entry.resourceClaimTemplateName} exists`);
        }
      }
      const allocated = new Set<string>();
      for (const c of objects.filter((o) => o.kind === 'ResourceClaim' && o.status?.allocation)) {
        const holder = sc.pods.find((p) => p.metadata.uid === c.status!.reservedFor?.[0]?.uid);
        assert.ok(holder, `allocated claim ${c.metadata.name} is reserved for an existing pod`);
        for (const r of c.status!.allocation!.devices?.results ?? []) {
          const id = `${r.driver}/${r.pool}/${r.device}`;
          assert.ok(devices.has(id), `${c.metadata.name}: allocated device ${id} is in a slice`);
          assert.ok(!allocated.has(id), `${id} is allocated once`);
          allocated.add(id);
          assert.equal(`${holder.spec.nodeName}-gpu`, r.pool, `${c.metadata.name}: the device is on its pod's node`);
        }
      }
      const text = JSON.stringify(generated);
      for (const feature of ['"nodeName"', '"nodeSelector"', '"allNodes"', '"sharedCounters"', '"firstAvailable"', '"allocationMode":"All"', '"count"', '"adminAccess"', '"matchAttribute"', '"tolerations"', '"taints"', '-stale"', '"allocation"', '"extendedResourceName"']) {
        if (text.includes(feature)) seen.add(feature);
      }
    }
    assert.deepEqual([...seen].sort(), ['"adminAccess"', '"allNodes"', '"allocation"', '"allocationMode":"All"', '"count"', '"firstAvailable"', '"matchAttribute"', '"nodeName"', '"nodeSelector"', '"sharedCounters"', '"taints"', '"tolerations"', '-stale"', '"extendedResourceName"'].sort());
  });

  it('scoring: pods with pod-level requests meet every scoring strategy, and pass validation', () => {
    const strategies = new Set<string>();
    for (let index = 0; index < 40; index++) {
      const generated = generateScenario(5, index, 'scoring');
      const sc = scenarioFromDocuments([structuredClone(generated)], `scoring-${index}`);
      if (![...sc.pods, ...sc.pending].some((p) => p.spec.resources?.requests)) continue;
      const args = (sc.config as { profiles?: { pluginConfig?: { name: string; args?: { scoringStrategy?: { type: string } } }[] }[] }).profiles?.[0]?.pluginConfig;
      strategies.add(args?.find((c) => c.name === 'NodeResourcesFit')?.args?.scoringStrategy?.type ?? '');
    }
    assert.deepEqual([...strategies].sort(), ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio']);
  });

  it('node-local: nodes declare features and pending pods need each kind of them', () => {
    let declaring = 0;
    const needs = new Set<string>();
    for (let index = 0; index < 20; index++) {
      const sc = scenarioFromDocuments([structuredClone(generateScenario(5, index, 'node-local'))], `node-local-${index}`);
      declaring += sc.nodes.filter((n) => (n.status?.declaredFeatures?.length ?? 0) > 0).length;
      for (const p of sc.pending) {
        if (p.spec.hostNetwork && p.spec.hostUsers === false) needs.add('UserNamespacesHostNetworkSupport');
        if (p.spec.containers.some((c) => c.restartPolicyRules?.length)) needs.add('RestartAllContainersOnContainerExits');
      }
    }
    assert.ok(declaring > 0);
    assert.deepEqual([...needs].sort(), ['RestartAllContainersOnContainerExits', 'UserNamespacesHostNetworkSupport']);
  });
});

interface DraObject {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec: { driver?: string; pool?: { name: string }; devices?: { name: string }[] };
  status?: { allocation?: { devices?: { results?: { driver: string; pool: string; device: string }[] } }; reservedFor?: { uid: string }[] };
}

function assertUnboundClaimsUsedOnce(pending: Pod[], objects: { kind?: string; metadata?: { name?: string }; spec?: { volumeName?: string } }[]): void {
  const unbound = new Set(objects.filter((o) => o.kind === 'PersistentVolumeClaim' && !o.spec?.volumeName).map((o) => o.metadata?.name));
  const users = new Map<string, number>();
  for (const p of pending) {
    for (const v of p.spec.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (claim && unbound.has(claim)) users.set(claim, (users.get(claim) ?? 0) + 1);
    }
  }
  for (const [claim, n] of users) assert.equal(n, 1, `unbound claim ${claim} is used by ${n} pending pods`);
}
