// The scale subresource of the replicated kinds: autoscaling/v1 Scale over spec.replicas
// (pkg/registry/apps/deployment/storage/storage.go ScaleREST, scaleFromDeployment,
// pkg/apis/autoscaling/validation ValidateScale).
import { Selector } from '../api/labels.js';
import type { KubeObject, LabelSelector } from '../api/types.js';
import type { FieldError } from './status.js';

export interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas: number; selector?: string };
}

type Replicated = KubeObject & { spec?: { replicas?: number; selector?: LabelSelector }; status?: { replicas?: number } };

/** The Scale view of a stored Deployment, ReplicaSet, StatefulSet or ReplicationController. */
export function scaleOf(o: Replicated): Scale {
  const m = o.metadata ?? {};
  const metadata = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  const replicas = o.spec?.replicas ?? 0;
  const sel = o.spec?.selector;
  // A ReplicationController's selector is a plain map; the others' a LabelSelector.
  const selector = o.kind === 'ReplicationController' ? Selector.fromSet(sel as Record<string, string> | undefined) : Selector.compile(sel);
  const status: Scale['status'] = { replicas: o.status?.replicas ?? 0 };
  const text = selector.toString();
  if (text !== '') status.selector = text;
  return { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata, spec: replicas === 0 ? {} : { replicas }, status };
}

/** ValidateScale: replicas may not be negative. */
export function validateScale(s: Scale): FieldError[] {
  const replicas = s.spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    return [{ type: 'FieldValueInvalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' }];
  }
  return [];
}
