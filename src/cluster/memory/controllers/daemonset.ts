// The DaemonSet controller of the embedded cluster: one pod per node the daemon should run on,
// pinned to that node by node affinity and scheduled by the scheduler, with the tolerations every
// daemon pod gets (pkg/controller/daemon/daemon_controller.go, util/daemonset_util.go).
import { RequiredNodeAffinity } from '../../../api/nodeselector.js';
import { findUntoleratedTaint } from '../../../api/taints.js';
import type { Affinity, Node, Pod, PodSpec, Toleration } from '../../../api/types.js';
import { controllerRef, isActive, ownedPods, podFromTemplate, type Workload } from './owned.js';
import { countReplicas, withoutZeros, writeStatus } from './status.js';
import type { ControllerContext } from './store.js';

const nodeNameField = 'metadata.name';

/** The template's tolerations plus those every daemon pod gets (AddOrUpdateDaemonPodTolerations). */
function daemonTolerations(spec: PodSpec): Toleration[] {
  const out = [...(spec.tolerations ?? [])];
  const add = (key: string, effect: 'NoExecute' | 'NoSchedule') => {
    const t: Toleration = { key, operator: 'Exists', effect };
    const i = out.findIndex((o) => o.key === key && o.effect === effect);
    if (i >= 0) out[i] = t;
    else out.push(t);
  };
  add('node.kubernetes.io/not-ready', 'NoExecute');
  add('node.kubernetes.io/unreachable', 'NoExecute');
  add('node.kubernetes.io/disk-pressure', 'NoSchedule');
  add('node.kubernetes.io/memory-pressure', 'NoSchedule');
  add('node.kubernetes.io/pid-pressure', 'NoSchedule');
  add('node.kubernetes.io/unschedulable', 'NoSchedule');
  if (spec.hostNetwork) add('node.kubernetes.io/network-unavailable', 'NoSchedule');
  return out;
}

/**
 * Whether a daemon pod should be on `node` and, if one is there, whether it may stay
 * (NodeShouldRunDaemonPod): the template's node name and required node affinity must match and
 * no NoSchedule/NoExecute taint may go untolerated; a pod already there stays when only
 * NoSchedule taints are untolerated.
 */
function nodeShouldRunDaemonPod(node: Node, spec: PodSpec, tolerations: readonly Toleration[], affinity: RequiredNodeAffinity): { shouldRun: boolean; shouldContinue: boolean } {
  if (spec.nodeName && spec.nodeName !== node.metadata.name) return { shouldRun: false, shouldContinue: false };
  if (!affinity.matches(node)) return { shouldRun: false, shouldContinue: false };
  const taints = node.spec?.taints;
  if (findUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute') === undefined) {
    return { shouldRun: true, shouldContinue: true };
  }
  return { shouldRun: false, shouldContinue: findUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute') === undefined };
}

/** The template's affinity with its required node terms replaced by "this node" (ReplaceDaemonSetPodNodeNameNodeAffinity). */
function pinnedAffinity(affinity: Affinity | undefined, node: string): Affinity {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: nodeNameField, operator: 'In', values: [node] }] }] };
  return { ...(affinity ?? {}), nodeAffinity: { ...(affinity?.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: required } };
}

/** The node a daemon pod is meant for: its node name, else its node-name affinity. */
function targetNode(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) if (f.key === nodeNameField && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  }
  return undefined;
}

/** Whether the controller of `ds` would run a daemon pod on `node` (NodeShouldRunDaemonPod's shouldRun). */
export function daemonShouldRunOn(ds: Workload, node: Node): boolean {
  const spec = ds.spec?.template?.spec ?? { containers: [] };
  return nodeShouldRunDaemonPod(node, spec, daemonTolerations(spec), RequiredNodeAffinity.fromPod({ metadata: {}, spec })).shouldRun;
}

/** The pod the controller of `ds` creates for `node`: from the template, with the daemon tolerations, pinned to the node. */
export function newDaemonPod(ds: Workload, node: string): Pod {
  const ref = controllerRef(ds, 'apps/v1', 'DaemonSet');
  const pod = podFromTemplate(ds, ref, { generateName: `${ds.metadata.name}-` }, { 'pod-template-generation': String(ds.metadata.generation ?? 1) });
  pod.spec.tolerations = daemonTolerations(pod.spec);
  pod.spec.affinity = pinnedAffinity(pod.spec.affinity, node);
  return pod;
}

/** Creates the missing daemon pods (in node name order) and deletes those on nodes they may not stay on, and duplicates. */
export function syncDaemonSet(ctx: ControllerContext, ds: Workload): void {
  const ns = ds.metadata.namespace ?? 'default';
  const spec = ds.spec?.template?.spec ?? { containers: [] };
  const tolerations = daemonTolerations(spec);
  const affinity = RequiredNodeAffinity.fromPod({ metadata: {}, spec });
  const podsByNode = new Map<string, Pod[]>();
  for (const p of ownedPods(ctx, ds)) {
    if (!isActive(p)) continue;
    const n = targetNode(p) ?? '';
    podsByNode.set(n, [...(podsByNode.get(n) ?? []), p]);
  }
  const nodes = ctx.store.list<Node>('Node').sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  let desired = 0;
  let scheduled = 0;
  let misscheduled = 0;
  const seen = new Set<string>();
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    seen.add(name);
    const { shouldRun, shouldContinue } = nodeShouldRunDaemonPod(node, spec, tolerations, affinity);
    const pods = podsByNode.get(name) ?? [];
    if (shouldRun) desired++;
    if (pods.length > 0) {
      if (shouldRun) scheduled++;
      else misscheduled++;
    }
    if (shouldRun && pods.length === 0) {
      ctx.store.create(newDaemonPod(ds, name));
    } else if (!shouldContinue) {
      for (const p of pods) ctx.store.remove('Pod', ns, p.metadata.name ?? '');
    } else {
      // One stays (a bound one first, then the oldest, as podByCreationTimestampAndPhase); copies go.
      const keep = pods.find((p) => p.spec.nodeName) ?? pods[0];
      for (const p of pods) if (p !== keep) ctx.store.remove('Pod', ns, p.metadata.name ?? '');
    }
  }
  for (const [n, pods] of podsByNode) if (!seen.has(n)) for (const p of pods) ctx.store.remove('Pod', ns, p.metadata.name ?? '');
  writeDaemonStatus(ctx, ds, desired, scheduled, misscheduled);
}

/**
 * The DaemonSet's status as its controller's updateDaemonSetStatus counts it: nodes that should
 * run a daemon pod, that have one, that have one but should not, and the daemon pods ready and
 * available (every pod is of the current template: a template change replaces them at once).
 */
function writeDaemonStatus(ctx: ControllerContext, ds: Workload & { status?: Record<string, unknown> }, desired: number, scheduled: number, misscheduled: number): void {
  const c = countReplicas(ownedPods(ctx, ds), (ds.spec as { minReadySeconds?: number } | undefined)?.minReadySeconds ?? 0, ctx.clock.now());
  writeStatus(ctx, ds, withoutZeros({
    currentNumberScheduled: scheduled, numberMisscheduled: misscheduled, desiredNumberScheduled: desired, numberReady: c.ready,
    observedGeneration: ds.metadata.generation ?? 1, updatedNumberScheduled: scheduled, numberAvailable: c.available,
    numberUnavailable: Math.max(0, desired - c.available),
  }, ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady']));
}

