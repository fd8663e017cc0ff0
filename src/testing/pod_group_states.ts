// The scheduler's pod-group states for a test: a tree's composites, groups and member pods.
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import { PodGroupStates } from '../cache/pod_group_state.js';

/** The states of the given groups and members (the CompositePodGroup gate as given), the `assumed` ones by name. */
export function podGroupStatesOf(composites: CompositePodGroup[], groups: PodGroup[], pods: Pod[], o: { assumed?: string[]; compositePodGroup?: boolean } = {}): PodGroupStates {
  const assumed = o.assumed ?? [];
  const states = new PodGroupStates((p) => assumed.includes(p.metadata.name ?? ''));
  states.compositePodGroupEnabled = o.compositePodGroup ?? true;
  for (const c of composites) states.setCompositePodGroup(c);
  for (const g of groups) states.setPodGroup(g);
  for (const p of pods) states.upsertPod(p);
  return states;
}
