// Where our scheduler still decides differently from the pinned upstream release (v1.37.2), each
// with the upstream change behind it and the code of ours that has to follow. A disagreement one
// of these explains is reported as known, not as a failure; fixing ours removes the entry.
import type { ExplainPod } from '../../src/sim/explain/explain.js';
import type { Scenario } from '../../src/sim/scenario/scenario.js';

export interface KnownDifference {
  id: string;
  /** The upstream change, and where ours has to follow it. */
  why: string;
  /**
   * Upstream's answer rewritten as upstream would have given it without this change, when the
   * change can explain (part of) the disagreement; else null.
   */
  undo(upstream: ExplainPod, ours: ExplainPod, scenario: Scenario): ExplainPod | null;
}

interface PreemptionArgs {
  minCandidateNodesPercentage?: number;
  minCandidateNodesAbsolute?: number;
}

/** True when DefaultPreemption's args let its dry run stop before it has looked at every node. */
function samplesCandidates(scenario: Scenario): boolean {
  const profiles = (scenario.config?.profiles ?? []) as { pluginConfig?: { name: string; args?: PreemptionArgs }[] }[];
  const args = profiles.flatMap((p) => p.pluginConfig ?? []).find((c) => c.name === 'DefaultPreemption')?.args;
  const nodes = scenario.nodes.length;
  const wanted = Math.max(Math.trunc((nodes * (args?.minCandidateNodesPercentage ?? 10)) / 100), args?.minCandidateNodesAbsolute ?? 100);
  return wanted < nodes;
}

export const knownDifferences: readonly KnownDifference[] = [
  {
    id: 'sampled-preemption-candidates',
    why: 'not a difference of ours: when DefaultPreemption\'s minCandidateNodesPercentage/Absolute ask for fewer candidates than there are nodes, upstream\'s dry run starts at a random node (rand.Int31n) and stops once it has enough, so its nominated node and victims vary from run to run; any of them is upstream\'s answer',
    undo(upstream, ours, scenario) {
      if (ours.nominatedNode === '' || upstream.nominatedNode === '' || !samplesCandidates(scenario)) return null;
      // Since v1.37 the FitError names the placement too ("... on node N, preempting K victims").
      const placement = ' preemption: found a potential placement for pod on node ';
      const head = (m: string) => (m.includes(placement) ? m.slice(0, m.indexOf(placement)) : m);
      const message = head(upstream.message) === head(ours.message) ? ours.message : upstream.message;
      // The timeline follows the same random choice: the nomination and the victims' deletions.
      return { ...upstream, nominatedNode: ours.nominatedNode, victims: ours.victims, message, ...(upstream.writes && ours.writes ? { writes: ours.writes } : {}) };
    },
  },
  {
    id: 'unstarted-victims-order',
    why: 'not a difference of ours: pods the scenario placed during the run have no status.startTime in the harness (no kubelet), and upstream\'s GetPodStartTime returns time.Now() for them, so preemption\'s reprieve order among equal-priority candidates (MoreImportantPod) is whatever the sort makes of a comparator that answers by call order; which of them become victims, the order they are deleted in, and between nodes whose victims tie on priority and count (pickOneNodeForPreemption then compares start times) which node is chosen are not upstream\'s to decide uniquely',
    undo(upstream, ours, scenario) {
      if (upstream.nominatedNode === '' || ours.nominatedNode === '') return null;
      const placedDuringRun = new Set(scenario.pending.map((p) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`));
      if (upstream.nominatedNode !== ours.nominatedNode) return otherNodeOfUnstartedVictims(upstream, ours, scenario, placedDuringRun);
      if (upstream.victims.join() === ours.victims.join()) return deletionsInOurOrder(upstream, ours, placedDuringRun);
      const differing = [...upstream.victims.filter((v) => !ours.victims.includes(v)), ...ours.victims.filter((v) => !upstream.victims.includes(v))];
      if (!differing.some((v) => placedDuringRun.has(v))) return null;
      const count = (m: string) => m.replace(/preempting \d+ victims/, 'preempting N victims');
      const message = count(upstream.message) === count(ours.message) ? ours.message : upstream.message;
      return { ...upstream, victims: ours.victims, message, ...(ours.writes ? { writes: ours.writes } : {}) };
    },
  },
  {
    id: 'tied-preemption-nodes',
    why: 'not a difference of ours: when two nodes offer the same victims (a `disruptionMode: all` group with members on both is one victim wherever the preemptor goes), every criterion of pickOneNodeForPreemption ties, and upstream then takes the first node of a list it built by ranging over a Go map, so its node changes from run to run; the victims are compared',
    undo(upstream, ours) {
      if (upstream.nominatedNode === '' || ours.nominatedNode === '' || upstream.nominatedNode === ours.nominatedNode) return null;
      if (upstream.victims.length === 0 || [...upstream.victims].sort().join() !== [...ours.victims].sort().join()) return null;
      const sameBut = (text: string, node: string) => text.split(node).join('<node>');
      if (sameBut(upstream.message, upstream.nominatedNode) !== sameBut(ours.message, ours.nominatedNode)) return null;
      return { ...upstream, nominatedNode: ours.nominatedNode, victims: ours.victims, message: ours.message, ...(ours.writes ? { writes: ours.writes } : {}) };
    },
  },
  {
    id: 'group-victims-order',
    why: 'not a difference of ours: a pod group with `disruptionMode: all` is one victim whose pods upstream lists from the group\'s scheduled-pod set (searchCrossNodesVictimPods: ScheduledPods(), a map), and the executor deletes all but the last in parallel, so the order of that group\'s deletions changes from run to run; which pods go is compared',
    undo(upstream, ours, scenario) {
      return deletionsInOurOrder(upstream, ours, wholeGroupMembers(scenario));
    },
  },
  {
    id: 'scheduled-pods-domain-order',
    why: 'not a difference of ours: when a topology-constrained group\'s scheduled pods do not share one domain, TopologyPlacement reports the first conflict it meets (two domains, or a pod on a node without the label), walking the tree\'s children (a set) and each PodGroup\'s assigned pods (a map) in Go map order, so which domains or which pod it names changes from run to run; that the cycle fails for that reason is compared',
    undo(upstream, ours) {
      const conflict = /cannot determine domain for already scheduled pods: (more than 1 domain found for pod group: \S+, \S+|no topology domain found for pod \S+)/;
      const u = conflict.exec(upstream.message);
      const o = conflict.exec(ours.message);
      if (!u || !o || u[1] === o[1]) return null;
      return { ...upstream, message: upstream.message.replace(u[1]!, o[1]!) };
    },
  },
  {
    id: 'late-nomination-clearing',
    why: 'the harness\'s attempt boundary, not the scheduler: a write clearing a pod\'s own nomination after its attempt failed can reach upstream\'s fake API server after the harness has read that attempt\'s timeline, so it shows in the next attempt\'s; ours records it in the pod\'s own. An attempt that preempts nothing clears no other pod\'s nomination, so such an entry there is a late one',
    undo(upstream, ours) {
      if (!upstream.writes || !ours.writes) return null;
      const own = `unnominate ${upstream.pod}`;
      let writes = upstream.writes;
      if (ours.writes.at(-1) === own && !writes.includes(own)) writes = [...writes, own];
      if (upstream.victims.length === 0) writes = writes.filter((w) => !w.startsWith('unnominate ') || w === own || ours.writes!.includes(w));
      return writes.join() === upstream.writes.join() ? null : { ...upstream, writes };
    },
  },
];

/** "namespace/name" of every pod in the scenario that belongs to a pod group with `disruptionMode: all`. */
function wholeGroupMembers(scenario: Scenario): Set<string> {
  const whole = new Set<string>();
  for (const o of scenario.objects as { kind?: string; metadata?: { name?: string; namespace?: string }; spec?: { disruptionMode?: { all?: unknown } } }[]) {
    if (o.kind === 'PodGroup' && o.spec?.disruptionMode?.all !== undefined) whole.add(`${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`);
  }
  const out = new Set<string>();
  for (const p of [...scenario.pods, ...scenario.pending]) {
    const ns = p.metadata.namespace ?? 'default';
    const group = p.spec.schedulingGroup?.podGroupName;
    if (group !== undefined && whole.has(`${ns}/${group}`)) out.add(`${ns}/${p.metadata.name ?? ''}`);
  }
  return out;
}

/**
 * Upstream's timeline with the deletions of `pods` in our order, when both sides delete the same
 * of them (at least two) in different orders; null otherwise.
 */
function deletionsInOurOrder(upstream: ExplainPod, ours: ExplainPod, pods: ReadonlySet<string>): ExplainPod | null {
  if (!upstream.writes || !ours.writes) return null;
  const isTheirs = (w: string) => w.startsWith('delete ') && pods.has(w.slice('delete '.length));
  const theirs = upstream.writes.filter(isTheirs);
  const mine = ours.writes.filter(isTheirs);
  if (theirs.length < 2 || theirs.join() === mine.join() || [...theirs].sort().join() !== [...mine].sort().join()) return null;
  let next = 0;
  return { ...upstream, writes: upstream.writes.map((w) => (isTheirs(w) ? mine[next++]! : w)) };
}

/**
 * Another node whose victims tie with upstream's on every criterion before start time (as many,
 * the same highest priority and sum of priorities), where every victim of that highest priority,
 * on both nodes, was placed during the run (pickOneNodeForPreemption then compares their start
 * times, time.Now() upstream).
 */
function otherNodeOfUnstartedVictims(upstream: ExplainPod, ours: ExplainPod, scenario: Scenario, placedDuringRun: ReadonlySet<string>): ExplainPod | null {
  if (upstream.victims.length === 0 || upstream.victims.length !== ours.victims.length) return null;
  const tie = (victims: readonly string[]) => {
    const priorities = victims.map((v) => podPriority(scenario, v));
    if (priorities.some((p) => p === undefined)) return null;
    const highest = Math.max(...(priorities as number[]));
    const unstarted = victims.every((v, i) => priorities[i] !== highest || placedDuringRun.has(v));
    return unstarted ? `${highest}/${(priorities as number[]).reduce((sum, p) => sum + p, 0)}` : null;
  };
  const theirs = tie(upstream.victims);
  if (theirs === null || theirs !== tie(ours.victims)) return null;
  const sameBut = (text: string, node: string) => text.split(node).join('<node>');
  if (sameBut(upstream.message, upstream.nominatedNode) !== sameBut(ours.message, ours.nominatedNode)) return null;
  return { ...upstream, nominatedNode: ours.nominatedNode, victims: ours.victims, message: ours.message, ...(ours.writes ? { writes: ours.writes } : {}) };
}

/** A scenario pod's priority (bound or pending): its spec's, else its class's value (0 without a class); undefined for an unknown pod or class. */
function podPriority(scenario: Scenario, key: string): number | undefined {
  const pod = [...scenario.pods, ...scenario.pending].find((p) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}` === key);
  if (!pod) return undefined;
  if (pod.spec.priority !== undefined) return pod.spec.priority;
  const className = pod.spec.priorityClassName;
  if (className === undefined) return 0;
  const cls = (scenario.objects as { kind?: string; metadata?: { name?: string }; value?: number }[]).find((o) => o.kind === 'PriorityClass' && o.metadata?.name === className);
  return cls?.value;
}
