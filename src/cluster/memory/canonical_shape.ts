// The key order kube-apiserver returns a pod's metadata and containers in (the Go structs'
// field order, k8s.io/api core/v1 Container and apimachinery ObjectMeta), applied by the embedded
// store to every pod it admits.
//
// Why: the scheduler reads these objects on every cycle. Built from different templates or
// manifests, they arrive with different key orders and optional keys, so each new source gave
// V8 a new hidden class and deoptimised every function reading them. Stored with the leading
// fields always present (undefined when unset, which JSON output and cloneJSON leave out), pods
// of different sources share one hidden class for these parts.
import type { Container, ObjectMeta } from '../../api/types.js';

/** ObjectMeta's fields up to ownerReferences, in Go order: always present on a stored pod. */
const metaSlots = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences'] as const;

/** Container's fields the scheduler and admission read, in Go order: always present. */
const containerSlots = ['name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources',
  'resizePolicy', 'restartPolicy', 'restartPolicyRules', 'volumeMounts'] as const;

const metaSlotSet: ReadonlySet<string> = new Set(metaSlots);
const containerSlotSet: ReadonlySet<string> = new Set(containerSlots);

/** `m` with the fixed fields first (one literal, one hidden class), then any others in their order. */
export function canonicalMeta(m: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = {
    name: m.name, generateName: m.generateName, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion,
    generation: m.generation, creationTimestamp: m.creationTimestamp, deletionTimestamp: m.deletionTimestamp,
    deletionGracePeriodSeconds: m.deletionGracePeriodSeconds, labels: m.labels, annotations: m.annotations,
    ownerReferences: m.ownerReferences,
  };
  appendRest(out as Record<string, unknown>, m as Record<string, unknown>, metaSlotSet);
  return out;
}

/** `c` with the fixed fields first (one literal, one hidden class), then any others in their order. */
export function canonicalContainer(c: Container): Container {
  const out: Container = {
    name: c.name, image: c.image, command: c.command, args: c.args, workingDir: c.workingDir, ports: c.ports,
    envFrom: c.envFrom, env: c.env, resources: c.resources, resizePolicy: c.resizePolicy, restartPolicy: c.restartPolicy,
    restartPolicyRules: c.restartPolicyRules, volumeMounts: c.volumeMounts,
  };
  appendRest(out as Record<string, unknown>, c as Record<string, unknown>, containerSlotSet);
  return out;
}

function appendRest(out: Record<string, unknown>, src: Record<string, unknown>, slots: ReadonlySet<string>): void {
  for (const k in src) {
    if (!Object.prototype.hasOwnProperty.call(src, k) || slots.has(k)) continue;
    if (src[k] !== undefined) out[k] = src[k];
  }
}
