// How kube-apiserver prints a Workload's template as the bad value of a field error: declarative
// validation JSON-encodes the versioned struct (json tags, omitempty), the hand-written rules of
// pkg/apis/scheduling/validation JSON-encode the internal one (Go field names, every field).
// Neither is cut short, so the text goes out as is.
import type { CompositePodGroupTemplate, PodGroupTemplate } from '../scheduling.js';
import { Unquoted } from './field.js';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** The object with the fields whose value is undefined left out (omitempty on a nil pointer or empty list). */
function omitEmpty(fields: Record<string, Json | undefined>): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && !(Array.isArray(v) && v.length === 0) && v !== '') out[k] = v;
  return out;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;
const emptyStruct = (v: unknown): Json | undefined => (present(v) ? {} : undefined);

function versionedPolicy(p: PodGroupTemplate['schedulingPolicy'] | CompositePodGroupTemplate['schedulingPolicy'] | undefined): Json {
  const gang = p?.gang as { minCount?: number; minGroupCount?: number } | undefined | null;
  let g: Json | undefined;
  if (present(gang)) g = gang!.minGroupCount !== undefined ? { minGroupCount: gang!.minGroupCount } : { minCount: gang!.minCount ?? 0 };
  return omitEmpty({ basic: emptyStruct(p?.basic), gang: g });
}

function versionedTopology(c: PodGroupTemplate['schedulingConstraints']): Json | undefined {
  if (!present(c)) return undefined;
  return omitEmpty({ topology: (c!.topology ?? []).map((t) => ({ key: t.key ?? '' })) });
}

function versionedDisruption(d: PodGroupTemplate['disruptionMode']): Json | undefined {
  return present(d) ? omitEmpty({ single: emptyStruct(d!.single), all: emptyStruct(d!.all) }) : undefined;
}

function versionedTemplate(t: PodGroupTemplate): Json {
  // PodGroupTemplate.schedulingConstraints has no omitempty: a nil one prints as null.
  return {
    name: t.name ?? '', schedulingPolicy: versionedPolicy(t.schedulingPolicy), schedulingConstraints: versionedTopology(t.schedulingConstraints) ?? null,
    ...omitEmpty({ resourceClaims: t.resourceClaims?.map((c) => omitEmpty({ name: c.name, resourceClaimName: c.resourceClaimName, resourceClaimTemplateName: c.resourceClaimTemplateName })),
      disruptionMode: versionedDisruption(t.disruptionMode), priorityClassName: t.priorityClassName, priority: t.priority, preemptionPolicy: t.preemptionPolicy }),
  };
}

function versionedComposite(t: CompositePodGroupTemplate): Json {
  return {
    name: t.name ?? '', schedulingPolicy: versionedPolicy(t.schedulingPolicy), ...omitEmpty({ schedulingConstraints: versionedTopology(t.schedulingConstraints),
    disruptionMode: versionedDisruption(t.disruptionMode), priorityClassName: t.priorityClassName, priority: t.priority, preemptionPolicy: t.preemptionPolicy,
    podGroupTemplates: t.podGroupTemplates?.map(versionedTemplate), compositePodGroupTemplates: t.compositePodGroupTemplates?.map(versionedComposite) }),
  };
}

/** A pod group template as declarative validation's Duplicate error prints it. */
export function versionedPodGroupTemplateValue(t: PodGroupTemplate): Unquoted {
  return new Unquoted(JSON.stringify(versionedTemplate(t)));
}

/** A composite template as declarative validation's Duplicate error prints it. */
export function versionedCompositeTemplateValue(t: CompositePodGroupTemplate): Unquoted {
  return new Unquoted(JSON.stringify(versionedComposite(t)));
}

const orNull = <T>(v: T | undefined | null): T | null => (v === undefined ? null : v);

function internalPolicy(p: PodGroupTemplate['schedulingPolicy'] | CompositePodGroupTemplate['schedulingPolicy'] | undefined): Json {
  const gang = p?.gang as { minCount?: number; minGroupCount?: number } | undefined | null;
  let g: Json = null;
  if (present(gang)) g = gang!.minGroupCount !== undefined ? { MinGroupCount: gang!.minGroupCount } : { MinCount: gang!.minCount ?? 0 };
  return { Basic: present(p?.basic) ? {} : null, Gang: g };
}

function internalTopology(c: PodGroupTemplate['schedulingConstraints']): Json {
  return present(c) ? { Topology: c!.topology === undefined ? null : c!.topology.map((t) => ({ Key: t.key ?? '' })) } : null;
}

function internalDisruption(d: PodGroupTemplate['disruptionMode']): Json {
  return present(d) ? { Single: present(d!.single) ? {} : null, All: present(d!.all) ? {} : null } : null;
}

function internalTemplate(t: PodGroupTemplate): Json {
  return {
    Name: t.name ?? '', SchedulingPolicy: internalPolicy(t.schedulingPolicy), SchedulingConstraints: internalTopology(t.schedulingConstraints),
    ResourceClaims: t.resourceClaims === undefined ? null
      : t.resourceClaims.map((c) => ({ Name: c.name ?? '', ResourceClaimName: orNull(c.resourceClaimName), ResourceClaimTemplateName: orNull(c.resourceClaimTemplateName) })),
    DisruptionMode: internalDisruption(t.disruptionMode), PriorityClassName: t.priorityClassName ?? '', Priority: orNull(t.priority),
    PreemptionPolicy: orNull(t.preemptionPolicy),
  };
}

function internalComposite(t: CompositePodGroupTemplate): Json {
  return {
    Name: t.name ?? '', SchedulingPolicy: internalPolicy(t.schedulingPolicy), SchedulingConstraints: internalTopology(t.schedulingConstraints),
    DisruptionMode: internalDisruption(t.disruptionMode), PriorityClassName: t.priorityClassName ?? '', Priority: orNull(t.priority),
    PreemptionPolicy: orNull(t.preemptionPolicy),
    PodGroupTemplates: t.podGroupTemplates === undefined ? null : t.podGroupTemplates.map(internalTemplate),
    CompositePodGroupTemplates: t.compositePodGroupTemplates === undefined ? null : t.compositePodGroupTemplates.map(internalComposite),
  };
}

/** A list of composite templates as the hand-written rules print it (the depth error's value). */
export function internalCompositeTemplatesValue(ts: readonly CompositePodGroupTemplate[] | undefined): Unquoted {
  return new Unquoted(ts === undefined ? 'null' : JSON.stringify(ts.map(internalComposite)));
}
