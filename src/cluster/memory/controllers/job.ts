// The Job controller of the embedded cluster: runs up to `parallelism` pods at a time until
// `completions` of them have succeeded, then marks the Job Complete
// (pkg/controller/job/job_controller.go, NonIndexed completion, without retries of failed pods).
// With WorkloadWithJob its pods join the PodGroup job_scheduling.ts makes for the Job.
import type { Pod } from '../../../api/types.js';
import { ensureWorkloadAndPodGroup, joinPodGroup, type SchedulingJob } from './job_scheduling.js';
import { controllerRef, isActive, ownedPods, podFromTemplate } from './owned.js';
import { isPodReady } from './status.js';
import type { ControllerContext } from './store.js';

const jobNameLabel = 'batch.kubernetes.io/job-name';
const controllerUidLabel = 'batch.kubernetes.io/controller-uid';
/** Keeps a finished pod countable until the Job has added it to its status (pod deletion does not lose it). */
export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

interface Job extends SchedulingJob {
  spec?: SchedulingJob['spec'] & { completions?: number | null; suspend?: boolean };
  status?: SchedulingJob['status'] & { active?: number; ready?: number; completionTime?: string };
}

/**
 * How many pods should run now (job_controller's manageJob for NonIndexed jobs): parallelism,
 * capped by the completions still missing; a job without completions stops starting pods once
 * one has succeeded.
 */
function wantedActive(job: Job, succeeded: number): number {
  if (job.spec?.suspend === true) return 0;
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  if (completions === undefined || completions === null) return succeeded > 0 ? 0 : parallelism;
  return Math.max(0, Math.min(parallelism, completions - succeeded));
}

/** The most pods the job may run at once. */
function limit(job: Job): number {
  return job.spec?.suspend === true ? 0 : (job.spec?.parallelism ?? 1);
}

function isComplete(job: Job): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True');
}

export function syncJob(ctx: ControllerContext, job: Job): void {
  if (isComplete(job)) return;
  const ns = job.metadata.namespace ?? 'default';
  const pods = ownedPods(ctx, job);
  // Before any pod is made, so that the new pods can name their group.
  const podGroup = ctx.workloadWithJob ? ensureWorkloadAndPodGroup(ctx, job, pods) : null;
  // Finished pods still carrying the finalizer are counted now, once, and released.
  let succeeded = job.status?.succeeded ?? 0;
  let failed = job.status?.failed ?? 0;
  for (const p of pods) {
    const phase = p.status?.phase;
    if ((phase !== 'Succeeded' && phase !== 'Failed') || !(p.metadata.finalizers ?? []).includes(jobTrackingFinalizer)) continue;
    if (phase === 'Succeeded') succeeded++;
    else failed++;
    ctx.store.update<Pod>({ ...p, metadata: { ...p.metadata, finalizers: p.metadata.finalizers!.filter((f) => f !== jobTrackingFinalizer) } });
  }
  const active = pods.filter(isActive);
  const want = wantedActive(job, succeeded);
  if (active.length < want) {
    const ref = controllerRef(job, 'batch/v1', 'Job');
    const labels = { [jobNameLabel]: job.metadata.name ?? '', [controllerUidLabel]: job.metadata.uid ?? '' };
    for (let i = active.length; i < want; i++) {
      const pod = podFromTemplate(job, ref, { generateName: `${job.metadata.name}-` }, labels);
      pod.metadata.finalizers = [jobTrackingFinalizer];
      if (podGroup !== null) joinPodGroup(pod, podGroup);
      ctx.store.create(pod);
    }
  } else if (active.length > limit(job)) {
    // Parallelism lowered (or the job suspended): the newest surplus pods go.
    for (const p of active.slice(limit(job)).reverse()) ctx.store.remove('Pod', ns, p.metadata.name ?? '');
  }
  const nowActive = Math.max(Math.min(active.length, limit(job)), want);
  const completions = job.spec?.completions;
  const done = completions === undefined || completions === null ? succeeded > 0 && nowActive === 0 : succeeded >= completions;
  const st = job.status ?? {};
  const ready = active.filter(isPodReady).length;
  const started = st.startTime !== undefined || job.spec?.suspend === true;
  if (st.active === nowActive && st.succeeded === succeeded && st.failed === failed && st.ready === ready && started && !done) return;
  const status: Job['status'] = { ...st, active: nowActive, succeeded, failed, ready };
  // The controller stamps the start of an unsuspended job's first sync (StartTime).
  if (!started) status.startTime = new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (done) {
    const now = new Date(ctx.clock.now()).toISOString();
    status.conditions = [...(st.conditions ?? []), { type: 'Complete', status: 'True', lastTransitionTime: now } as { type: string; status: string }];
    status.completionTime = now;
  }
  ctx.store.update({ ...job, status });
}
