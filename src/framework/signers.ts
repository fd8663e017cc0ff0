// Signature fragment names and the signers several plugins share (staging/src/k8s.io/kube-scheduler/
// framework/signers.go, KEP-5598). Values are plain data, compared after canonicalJson: lists
// whose order does not matter are sorted here, so equal requirements give equal signatures.
import type { NodeSelectorRequirement, NodeSelectorTerm, Pod, PreferredSchedulingTerm, Toleration } from '../api/types.js';
import type { SignFragment } from './interfaces.js';

export const DynamicResourcesSignerName = 'v1.Pod.Spec.DynamicResources';
export const ImageNamesSignerName = 'v1.Pod.Spec.CanonicalImageNames()';
export const LabelsSignerName = 'v1.Pod.Labels';
export const NodeNameSignerName = 'v1.Pod.Spec.NodeName';
export const NodeAffinitySignerName = 'v1.Pod.Spec.Affinity.NodeAffinity';
export const NodeSelectorSignerName = 'v1.Pod.Spec.Affinity.NodeSelector';
export const HostPortsSignerName = 'v1.Pod.Spec.HostPorts()';
export const ResourcesSignerName = 'v1.Pod.Spec.ContainerRequestsAndOverheads()';
export const SchedulerNameSignerName = 'v1.Pod.Spec.SchedulerName';
export const TolerationsSignerName = 'v1.Pod.Spec.Tolerations';
export const VolumesSignerName = 'v1.Pod.Spec.Volumes.NonSyntheticSources()';
export const FeaturesSignerName = 'v1.Pod.Spec.RequiredFeatures()';

/** A fragment value whose canonical form is built when the signature is serialised. */
class Deferred {
  constructor(
    private readonly form: (pod: Pod) => unknown,
    private readonly pod: Pod,
  ) {}

  value(): unknown {
    return this.form(this.pod);
  }
}

/**
 * The fragment `key` whose value is `form(pod)`, computed only if every plugin signs: a plugin
 * asked before one that refuses (under the default profile PodTopologySpread refuses every pod)
 * then costs two small objects instead of sorting and serialising the pod's lists.
 */
export function deferredFragment(key: string, form: (pod: Pod) => unknown, pod: Pod): SignFragment {
  return { key, value: new Deferred(form, pod) };
}

/**
 * JSON with object keys sorted and absent (undefined or null) members left out, so two objects
 * holding the same fields in another order, as YAML may give them, serialise alike (as Go's
 * encoding of a struct does).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const entries: Record<string, unknown> = v instanceof Map ? (Object.fromEntries(v) as Record<string, unknown>) : (v as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(entries).sort()) {
      const entry = entries[k];
      const member = entry instanceof Deferred ? entry.value() : entry;
      if (member !== undefined && member !== null) out[k] = member;
    }
    return out;
  });
}

const sortedStrings = (list: string[]): string[] => list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The distinct host ports of the pod's containers and init containers, ascending. */
export function hostPortsSigner(pod: Pod): number[] {
  const ports = new Set<number>();
  for (const list of [pod.spec.containers, pod.spec.initContainers]) {
    for (const c of list ?? []) for (const p of c.ports ?? []) if (p.hostPort) ports.add(p.hostPort);
  }
  return [...ports].sort((a, b) => a - b);
}

function requirementsSigner(reqs: readonly NodeSelectorRequirement[] | undefined): string[] {
  return sortedStrings((reqs ?? []).map((r) => canonicalJson({ ...r, values: r.values ? sortedStrings([...r.values]) : undefined })));
}

function termSigner(t: NodeSelectorTerm): { MatchExpressions: string[]; MatchFields: string[] } {
  return { MatchExpressions: requirementsSigner(t.matchExpressions), MatchFields: requirementsSigner(t.matchFields) };
}

function preferredTermsSigner(terms: readonly PreferredSchedulingTerm[]): string[] {
  return sortedStrings(terms.map((t) => canonicalJson({ Weight: t.weight, Preference: termSigner(t.preference) })));
}

/** The pod's node affinity with every list sorted, or null without one. */
export function nodeAffinitySigner(pod: Pod): { Required: string[]; Preferred: string[] } | null {
  const n = pod.spec.affinity?.nodeAffinity;
  if (!n) return null;
  const required = n.requiredDuringSchedulingIgnoredDuringExecution;
  return {
    Required: required ? sortedStrings(required.nodeSelectorTerms.map((t) => canonicalJson(termSigner(t)))) : [],
    Preferred: n.preferredDuringSchedulingIgnoredDuringExecution ? preferredTermsSigner(n.preferredDuringSchedulingIgnoredDuringExecution) : [],
  };
}

/** The pod's tolerations ordered by key, then value. */
export function tolerationsSigner(pod: Pod): Toleration[] {
  return [...(pod.spec.tolerations ?? [])].sort((a, b) => {
    const ka = a.key ?? '';
    const kb = b.key ?? '';
    if (ka !== kb) return ka < kb ? -1 : 1;
    const va = a.value ?? '';
    const vb = b.value ?? '';
    return va < vb ? -1 : va > vb ? 1 : 0;
  });
}

/**
 * The pod's volume sources (names left out) except ConfigMaps and Secrets, which never change
 * where a pod fits but differ from pod to pod, sorted.
 */
export function volumesSigner(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? []) {
    if (v.configMap || v.secret) continue;
    const { name: _name, ...source } = v;
    out.push(canonicalJson(source));
  }
  return sortedStrings(out);
}
