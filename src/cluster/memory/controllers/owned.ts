// Helpers every workload controller shares: controller references, pods made from a template,
// generated name suffixes, and which pods still count (pkg/controller/controller_utils.go).
import type { KubeObject, LabelSelector, ObjectMeta, OwnerReference, Pod, PodSpec } from '../../../api/types.js';
import { cloneJSON } from '../../../util/json_clone.js';
import type { ControllerContext } from './store.js';

/** A workload object as the controllers read it: a selector, a pod template, replicas. */
export interface Workload extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: { metadata?: ObjectMeta; spec?: PodSpec };
  };
}

/** The controller reference a controller puts on what it creates. */
export function controllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata?.name ?? '', uid: owner.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** The uid of the object's controller, or undefined. */
export function controllerUid(o: KubeObject): string | undefined {
  return o.metadata?.ownerReferences?.find((r) => r.controller === true)?.uid;
}

/** Whether a pod has finished (Succeeded or Failed): it no longer counts as a replica. */
function isTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Pods a replica count includes: neither finished nor being deleted (FilterActivePods). */
export function isActive(pod: Pod): boolean {
  return !isTerminated(pod) && pod.metadata.deletionTimestamp === undefined;
}

/** The pods `owner` controls in its namespace, in creation order (then by name). */
export function ownedPods(ctx: ControllerContext, owner: KubeObject): Pod[] {
  const ns = owner.metadata?.namespace ?? 'default';
  return ctx.podsOf(owner.metadata?.uid ?? '').filter((p) => (p.metadata.namespace ?? 'default') === ns).sort(byCreation);
}

export function byCreation(a: KubeObject, b: KubeObject): number {
  const ta = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  return ta - tb || Number(a.metadata?.resourceVersion ?? 0) - Number(b.metadata?.resourceVersion ?? 0);
}

/** A pod from a workload's template: its labels, annotations and spec, owned by `owner`. */
export function podFromTemplate(
  owner: Workload,
  ref: OwnerReference,
  naming: { name: string } | { generateName: string },
  extraLabels: Readonly<Record<string, string>> = {},
): Pod {
  const template = owner.spec?.template ?? {};
  const spec = cloneJSON(template.spec ?? { containers: [] }) as PodSpec;
  const meta: ObjectMeta = {
    ...naming,
    namespace: owner.metadata.namespace ?? 'default',
    labels: { ...(template.metadata?.labels ?? {}), ...extraLabels },
    ownerReferences: [ref],
  };
  if (template.metadata?.annotations !== undefined) meta.annotations = { ...template.metadata.annotations };
  return { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec };
}
