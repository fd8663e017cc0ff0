// Mirrors upstream pkg/scheduler/framework/plugins/helper/spread.go (DefaultSelector, GetPodServices).
import { Selector } from '../../api/labels.js';
import type { OwnerReference, Pod, ReplicaSet, ReplicationController, Service, StatefulSet } from '../../api/types.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { conjunction, type LabelMatcher } from './common.js';

/** The pod's controller reference (metav1.GetControllerOfNoCopy). */
function controllerOf(pod: Pod): OwnerReference | undefined {
  for (const ref of pod.metadata.ownerReferences ?? []) if (ref.controller === true) return ref;
  return undefined;
}

/** Splits an apiVersion into group and version as schema.ParseGroupVersion; undefined when malformed. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** Services in the pod's namespace whose (non-nil) selector matches the pod's labels. */
function getPodServices(objects: ObjectLister, pod: Pod): Service[] {
  const out: Service[] = [];
  for (const svc of objects.list<Service>('Service', pod.metadata.namespace ?? 'default')) {
    const sel = svc.spec?.selector;
    // A nil selector selects nothing, not everything.
    if (sel === undefined || sel === null) continue;
    if (Selector.fromSet(sel).matches(pod.metadata.labels)) out.push(svc);
  }
  return out;
}

/**
 * A selector built from the Services, ReplicationController, ReplicaSet and StatefulSet that own or
 * select the pod. It is empty (isEverything) when none applies.
 */
export function defaultSelector(pod: Pod, objects: ObjectLister): LabelMatcher {
  const labelSet: Record<string, string> = {};
  // Everything that selects the pod agrees with its labels, so merging the maps is safe.
  for (const svc of getPodServices(objects, pod)) Object.assign(labelSet, svc.spec!.selector);
  const fromSet = Selector.fromSet(labelSet);

  const owner = controllerOf(pod);
  if (!owner) return fromSet;
  const gv = parseGroupVersion(owner.apiVersion ?? '');
  if (!gv) return fromSet;
  const ns = pod.metadata.namespace ?? 'default';

  if (gv.group === '' && gv.version === 'v1' && owner.kind === 'ReplicationController') {
    const rc = objects.get<ReplicationController>('ReplicationController', ns, owner.name);
    if (!rc) return fromSet;
    return Selector.fromSet({ ...labelSet, ...(rc.spec?.selector ?? {}) });
  }
  if (gv.group === 'apps' && gv.version === 'v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const ctrl = objects.get<ReplicaSet | StatefulSet>(owner.kind, ns, owner.name);
    if (!ctrl) return fromSet;
    let other: Selector;
    try {
      other = Selector.compile(ctrl.spec?.selector);
    } catch {
      return fromSet;
    }
    // A nil selector has no requirements to add.
    if (other.matchesNothing) return fromSet;
    return conjunction([fromSet, other]);
  }
  return fromSet;
}
