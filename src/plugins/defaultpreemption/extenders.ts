// Preemption candidates narrowed by the extenders that support preemption
// (framework/preemption/preemption.go callExtenders).
import type { Extender, PreemptionVictims } from '../../framework/extender.js';
import type { MaybePromise } from '../../util/maybe_promise.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import type { Candidate } from './candidate.js';

/**
 * Each interested extender with a preempt verb, in order, answers which candidate nodes it keeps
 * and with which victims; the next one sees that answer. An extender's error fails preemption
 * unless it is ignorable; so does a kept node without victims (an ignorable extender's is dropped).
 * The candidates come back at once when no extender is to be asked.
 */
export function narrowCandidatesByExtenders(
  extenders: readonly Extender[],
  pod: PodInfo,
  candidates: readonly Candidate[],
  lookupNode: (name: string) => NodeInfo | undefined,
): MaybePromise<Candidate[] | Status> {
  const asked = extenders.filter((e) => e.supportsPreemption() && e.isInterested(pod.pod));
  if (asked.length === 0 || candidates.length === 0) return [...candidates];
  return askExtenders(asked, pod, candidates, lookupNode);
}

async function askExtenders(
  extenders: readonly Extender[],
  pod: PodInfo,
  candidates: readonly Candidate[],
  lookupNode: (name: string) => NodeInfo | undefined,
): Promise<Candidate[] | Status> {
  let victims = new Map<string, PreemptionVictims>();
  for (const c of candidates) victims.set(c.name, { pods: c.victims.pods.map((p) => p.pod), numPDBViolations: c.victims.numPDBViolations });
  for (const extender of extenders) {
    let answer: Map<string, PreemptionVictims>;
    try {
      answer = await extender.processPreemption(pod.pod, victims, lookupNode);
    } catch (err) {
      if (extender.isIgnorable()) continue;
      return Status.error(err as Error);
    }
    for (const [name, v] of answer) {
      if (v.pods.length > 0) continue;
      if (!extender.isIgnorable()) return Status.error(`expected at least one victim pod on node "${name}"`);
      answer.delete(name);
    }
    victims = answer;
    // With no node left, no other extender can bring one back.
    if (victims.size === 0) break;
  }
  return toCandidates(victims, candidates, lookupNode);
}

/** The kept nodes as candidates, in the order the dry run found them (then any others). */
function toCandidates(victims: ReadonlyMap<string, PreemptionVictims>, before: readonly Candidate[], lookupNode: (name: string) => NodeInfo | undefined): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (name: string) => {
    const v = victims.get(name)!;
    seen.add(name);
    out.push({ name, victims: { pods: v.pods.map((p) => podInfoOn(lookupNode(name), p)), numPDBViolations: v.numPDBViolations } });
  };
  for (const c of before) if (victims.has(c.name)) add(c.name);
  for (const name of victims.keys()) if (!seen.has(name)) add(name);
  return out;
}

/** The node's own PodInfo for a victim (what eviction and reporting use), else a new one. */
function podInfoOn(node: NodeInfo | undefined, pod: PreemptionVictims['pods'][number]): PodInfo {
  const uid = pod.metadata.uid;
  if (node !== undefined && uid !== undefined) for (const pi of node.pods) if (pi.uid === uid) return pi;
  return new PodInfo(pod);
}
