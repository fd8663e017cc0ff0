// WorkloadWithJob for the embedded Job controller (pkg/controller/job/job_scheduling_manager.go,
// pkg/api/job/util.go and component-helpers' workloadbuilder): a new Job not run by another
// controller gets a Workload of one pod-group template and a PodGroup made from it; a Job its
// parent delegates a template to (the group-template-name annotation) gets only the PodGroup. Its
// pods then name that group. Gang minCount follows the Job (parallelism by default).
import type { OwnerReference, Pod } from '../../../api/types.js';
import type { DisruptionMode, PodGroup, PodGroupResourceClaim, PodGroupSchedulingConstraints, PodGroupSchedulingPolicy, PodGroupTemplate, Workload as WorkloadObject } from '../../../api/scheduling.js';
import { cloneJSON } from '../../../util/json_clone.js';
import { controllerRef, type Workload } from './owned.js';
import { safeHash } from './safe_hash.js';
import type { ControllerContext } from './store.js';

/** The annotation a parent controller puts on a Job it delegates a pod-group template to. */
export const groupTemplateNameAnnotation = 'scheduling.k8s.io/group-template-name';
const schedulingV1beta1 = 'scheduling.k8s.io/v1beta1';
/** DNS1123SubdomainMaxLength: the longest object name. */
const maxNameLength = 253;

/** The Job's spec.scheduling (batch/v1 JobSchedulingConfiguration). */
interface JobSchedulingConfiguration {
  schedulingPolicy?: { basic?: Record<string, never>; gang?: { minCount?: number } };
  schedulingConstraints?: PodGroupSchedulingConstraints;
  disruptionMode?: DisruptionMode;
  resourceClaims?: PodGroupResourceClaim[];
}

/** A Job as this part reads it. */
export interface SchedulingJob extends Workload {
  spec?: Workload['spec'] & { parallelism?: number; scheduling?: JobSchedulingConfiguration };
  status?: { startTime?: string; succeeded?: number; failed?: number; conditions?: { type: string; status: string }[] };
}

type Mode = 'none' | 'both' | 'podGroupOnly';

/** getManagementMode: what the controller manages for the Job. */
function managementMode(job: SchedulingJob): Mode {
  if (job.spec?.template?.spec?.schedulingGroup != null) return 'none';
  const owner = job.metadata.ownerReferences?.find((r) => r.controller === true);
  if (owner === undefined) return 'both';
  return job.metadata.annotations?.[groupTemplateNameAnnotation] !== undefined ? 'podGroupOnly' : 'none';
}

/** isNewJob: nothing has run yet and the Job was never suspended; only such a Job gets new objects. */
function isNewJob(job: SchedulingJob, pods: readonly Pod[]): boolean {
  const st = job.status ?? {};
  if (pods.length > 0 || st.startTime !== undefined || (st.succeeded ?? 0) !== 0 || (st.failed ?? 0) !== 0) return false;
  return !(st.conditions ?? []).some((c) => c.type === 'Suspended');
}

/** computeWorkloadName: the Job's name (cut to fit) and a hash of its uid as dump.ForHash prints it. */
export function workloadNameFor(job: SchedulingJob): string {
  const hash = safeHash(`(types.UID)${job.metadata.uid ?? ''}`);
  return `${(job.metadata.name ?? '').slice(0, maxNameLength - hash.length - 1)}-${hash}`;
}

/** computePodGroupName: the Workload's and the template's names, cut to fit, and a hash of both. */
export function podGroupNameFor(workloadName: string, templateName: string): string {
  const hash = safeHash(workloadName + templateName);
  const room = maxNameLength - hash.length - 2;
  let wl = workloadName;
  let tpl = templateName;
  if (wl.length + tpl.length > room) {
    const half = Math.trunc(room / 2);
    if (wl.length <= half) tpl = tpl.slice(0, room - wl.length);
    else if (tpl.length <= half) wl = wl.slice(0, room - tpl.length);
    else {
      wl = wl.slice(0, room - half);
      tpl = tpl.slice(0, half);
    }
  }
  return `${wl}-${tpl}-${hash}`;
}

/** The Job's one pod-group template (WorkloadItemForJob): basic unless the Job asks for a gang, whose minCount defaults to parallelism. */
function podGroupTemplateFor(job: SchedulingJob): PodGroupTemplate {
  const s = job.spec?.scheduling ?? {};
  let schedulingPolicy: PodGroupSchedulingPolicy = { basic: {} };
  const gang = s.schedulingPolicy?.gang;
  if (gang != null) schedulingPolicy = { gang: { minCount: gang.minCount ?? Math.max(1, job.spec?.parallelism ?? 1) } };
  const tmpl: PodGroupTemplate = { name: `${job.metadata.name ?? ''}-pgt-0`, schedulingPolicy };
  const pc = job.spec?.template?.spec?.priorityClassName;
  if (pc) tmpl.priorityClassName = pc;
  const topology = s.schedulingConstraints?.topology ?? [];
  if (topology.length > 0) tmpl.schedulingConstraints = { topology: topology.map((t) => ({ key: t.key })) };
  if (s.disruptionMode != null) tmpl.disruptionMode = cloneJSON(s.disruptionMode);
  if ((s.resourceClaims ?? []).length > 0) tmpl.resourceClaims = cloneJSON(s.resourceClaims);
  return tmpl;
}

const isControlledBy = (o: { metadata?: { ownerReferences?: OwnerReference[] } }, job: SchedulingJob): boolean =>
  o.metadata?.ownerReferences?.some((r) => r.controller === true && r.uid === job.metadata.uid) === true;

/**
 * ensureWorkloadAndPodGroup (WorkloadWithJob on): the PodGroup the Job's new pods join, creating
 * the Workload and the PodGroup for a new Job and keeping a gang's minCount in step; null when the
 * Job's pods join no group.
 */
export function ensureWorkloadAndPodGroup(ctx: ControllerContext, job: SchedulingJob, pods: readonly Pod[]): PodGroup | null {
  const mode = managementMode(job);
  if (mode === 'none') return null;
  const newJob = isNewJob(job, pods);
  if (mode === 'podGroupOnly') return delegatedPodGroup(ctx, job, newJob);
  const ns = job.metadata.namespace ?? 'default';
  const ref = job.metadata.name ?? '';
  const owned = ctx.workloadsOfJob(ns, ref).filter((w) => isControlledBy(w, job));
  let wl: WorkloadObject;
  if (owned.length === 0) {
    if (!newJob) return null;
    wl = ctx.store.create<WorkloadObject>({
      apiVersion: schedulingV1beta1, kind: 'Workload',
      metadata: { name: workloadNameFor(job), namespace: ns, ownerReferences: [controllerRef(job, 'batch/v1', 'Job')] },
      spec: { controllerRef: { apiGroup: 'batch', kind: 'Job', name: ref }, podGroupTemplates: [podGroupTemplateFor(job)] },
    });
  } else if (owned.length === 1) {
    // validateWorkloadStructure: a Job's Workload has exactly one template (else the sync fails).
    if ((owned[0]!.spec.podGroupTemplates ?? []).length !== 1) return null;
    wl = owned[0]!;
  } else {
    // Several: upstream falls back to default scheduling.
    return null;
  }
  const groups = groupsOf(ctx, wl).filter((pg) => isControlledBy(pg, job));
  let pg: PodGroup | null;
  if (groups.length === 0) pg = newJob ? createPodGroup(ctx, job, wl, wl.spec.podGroupTemplates![0]!, true) : null;
  else pg = groups.length === 1 ? groups[0]! : null;
  return syncGangMinCount(ctx, job, wl, pg);
}

/** The PodGroups made from the Workload's templates, in its namespace. */
function groupsOf(ctx: ControllerContext, wl: WorkloadObject): readonly PodGroup[] {
  return ctx.podGroupsOfWorkload(wl.metadata.namespace ?? 'default', wl.metadata.name ?? '');
}

/** workloadByJobNameIndexFunc: "namespace/job" of a Workload whose controllerRef is a batch Job. */
export function workloadsByJob(w: WorkloadObject): string | undefined {
  const ref = w.spec?.controllerRef;
  if (ref?.apiGroup !== 'batch' || ref.kind !== 'Job' || !ref.name) return undefined;
  return `${w.metadata?.namespace ?? 'default'}/${ref.name}`;
}

/** podGroupByWorkloadNameIndexFunc: "namespace/workload" of a PodGroup's workloadRef. */
export function podGroupsByWorkload(pg: PodGroup): string | undefined {
  const name = pg.spec?.workloadRef?.workloadName;
  return name ? `${pg.metadata?.namespace ?? 'default'}/${name}` : undefined;
}

/** builder.NewPodGroup: the template's fields, a reference to it, owned by the Job (and the Workload when the Job owns that too). */
function createPodGroup(ctx: ControllerContext, job: SchedulingJob, wl: WorkloadObject, tmpl: PodGroupTemplate, linkWorkload: boolean): PodGroup {
  const owners: OwnerReference[] = [controllerRef(job, 'batch/v1', 'Job')];
  if (linkWorkload) owners.push({ apiVersion: schedulingV1beta1, kind: 'Workload', name: wl.metadata.name ?? '', uid: wl.metadata.uid ?? '' });
  const { name: templateName, ...fields } = cloneJSON(tmpl);
  return ctx.store.create<PodGroup>({
    apiVersion: schedulingV1beta1, kind: 'PodGroup',
    metadata: { name: podGroupNameFor(wl.metadata.name ?? '', templateName), namespace: wl.metadata.namespace ?? 'default', ownerReferences: owners },
    spec: { workloadRef: { workloadName: wl.metadata.name ?? '', templateName }, ...fields },
  });
}

/** syncGangMinCount: the Workload's template and the PodGroup follow the gang minCount the Job now gives. */
function syncGangMinCount(ctx: ControllerContext, job: SchedulingJob, wl: WorkloadObject, pg: PodGroup | null): PodGroup | null {
  const desired = podGroupTemplateFor(job).schedulingPolicy.gang?.minCount;
  if (desired === undefined) return pg;
  const templates = wl.spec.podGroupTemplates ?? [];
  if (templates.length === 1 && templates[0]!.schedulingPolicy.gang != null && templates[0]!.schedulingPolicy.gang.minCount !== desired) {
    ctx.store.update<WorkloadObject>({ ...wl, spec: { ...wl.spec, podGroupTemplates: [{ ...templates[0]!, schedulingPolicy: { gang: { minCount: desired } } }] } });
  }
  return withMinCount(ctx, pg, desired);
}

function withMinCount(ctx: ControllerContext, pg: PodGroup | null, minCount: number): PodGroup | null {
  if (pg === null || pg.spec.schedulingPolicy.gang == null || pg.spec.schedulingPolicy.gang.minCount === minCount) return pg;
  return ctx.store.update<PodGroup>({ ...pg, spec: { ...pg.spec, schedulingPolicy: { gang: { minCount } } } });
}

/** getOrCreateDelegatedPodGroup: the parent's Workload gives the template the annotation names; only the PodGroup is the Job's. */
function delegatedPodGroup(ctx: ControllerContext, job: SchedulingJob, newJob: boolean): PodGroup | null {
  const parent = job.metadata.ownerReferences!.find((r) => r.controller === true)!;
  const slash = parent.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : parent.apiVersion.slice(0, slash);
  const ns = job.metadata.namespace ?? 'default';
  const wl = ctx.store.list<WorkloadObject>('Workload').find((w) => (w.metadata.namespace ?? 'default') === ns
    && w.spec?.controllerRef != null && (w.spec.controllerRef.apiGroup ?? '') === group && w.spec.controllerRef.kind === parent.kind && w.spec.controllerRef.name === parent.name);
  // The parent's Workload may not exist yet: the Job's next sync tries again.
  const templates = wl?.spec.podGroupTemplates ?? [];
  if (wl === undefined || templates.length === 0) return null;
  const templateName = job.metadata.annotations![groupTemplateNameAnnotation]!;
  const tmpl = templateName === '' ? templates[0] : templates.find((t) => t.name === templateName);
  if (tmpl === undefined) return null;
  let pg = groupsOf(ctx, wl).find((g) => isControlledBy(g, job)) ?? null;
  if (pg === null && newJob) pg = createPodGroup(ctx, job, wl, tmpl, false);
  const desired = tmpl.schedulingPolicy.gang?.minCount;
  return desired === undefined ? pg : withMinCount(ctx, pg, desired);
}

/** What a Job's new pod carries when it joins `pg`: the group's name and a (non-controller) reference to it. */
export function joinPodGroup(pod: Pod, pg: PodGroup): void {
  pod.spec.schedulingGroup = { podGroupName: pg.metadata.name ?? '' };
  pod.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), { apiVersion: schedulingV1beta1, kind: 'PodGroup', name: pg.metadata.name ?? '', uid: pg.metadata.uid ?? '' }];
}
