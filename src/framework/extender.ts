// The scheduler extender contract (pkg/scheduler/framework/extender.go): a process outside the
// scheduler that filters and scores nodes and may bind pods, called after the plugins.
import type { Pod } from '../api/types.js';
import type { NodeInfo } from './node_info.js';

/** Per node: why the extender rejected it. */
export type FailedNodesMap = Record<string, string>;

export interface ExtenderFilterResult {
  /** The nodes that passed, a subset of the input, in the extender's order. */
  readonly feasible: NodeInfo[];
  /** Rejected nodes that another scheduling attempt might still find fitting. */
  readonly failed: FailedNodesMap;
  /** Rejected nodes that preemption cannot help either. */
  readonly failedAndUnresolvable: FailedNodesMap;
}

/** One node's score from an extender, on the extender scale 0..MaxExtenderPriority. */
export interface HostPriority {
  readonly host: string;
  readonly score: number;
}

/** The extender scale: its scores are multiplied by MaxNodeScore / MaxExtenderPriority. */
export const MaxExtenderPriority = 10;

/** Where a pod goes, as the extender's bind verb receives it. */
export interface ExtenderBinding {
  readonly podName: string;
  readonly podNamespace: string;
  readonly podUID: string;
  readonly node: string;
}

/** The pods preemption would evict on one node, and how many PodDisruptionBudgets that violates. */
export interface PreemptionVictims {
  readonly pods: Pod[];
  readonly numPDBViolations: number;
}

export interface Extender {
  /** Identifies the extender in logs and score breakdowns (upstream: its URL prefix). */
  name(): string;
  /** Whether an error from it is skipped instead of failing the attempt. */
  isIgnorable(): boolean;
  /** Whether the pod requests one of the resources it manages (any pod, when it manages none). */
  isInterested(pod: Pod): boolean;
  isFilter(): boolean;
  isPrioritizer(): boolean;
  isBinder(): boolean;
  supportsPreemption(): boolean;
  /** Narrows the feasible nodes; rejects with an Error on failure. */
  filter(pod: Pod, nodes: readonly NodeInfo[]): Promise<ExtenderFilterResult>;
  /** Scores the nodes; with the weight to multiply them by. */
  prioritize(pod: Pod, nodes: readonly NodeInfo[]): Promise<{ scores: HostPriority[]; weight: number }>;
  /** Binds the pod; rejects with an Error on failure. */
  bind(binding: ExtenderBinding): Promise<void>;
  /**
   * Narrows preemption's candidates: per node it keeps, the victims it agrees to (a node it drops
   * is no candidate). `lookupNode` finds the pods an answer names. Rejects with an Error on failure.
   */
  processPreemption(
    pod: Pod,
    nodeNameToVictims: ReadonlyMap<string, PreemptionVictims>,
    lookupNode: (nodeName: string) => NodeInfo | undefined,
  ): Promise<Map<string, PreemptionVictims>>;
}

/** The name under which extenders' rejections are recorded among a pod's unschedulable plugins. */
export const ExtenderName = 'Extender';
