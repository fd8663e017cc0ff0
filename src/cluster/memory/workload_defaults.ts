// The defaults kube-apiserver gives workload objects on create (pkg/apis/apps/v1/defaults.go,
// pkg/apis/batch/v1/defaults.go) and the selector the Job strategy generates
// (pkg/registry/batch/job/strategy.go generateSelector).
import type { KubeObject } from '../../api/types.js';

type Spec = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function specOf(o: KubeObject): Spec | undefined {
  const spec = (o as { spec?: unknown }).spec;
  return isRecord(spec) ? spec : undefined;
}

/** A RollingUpdate strategy's nested defaults, when the strategy is RollingUpdate. */
function rollingUpdate(strategy: Spec, defaults: Spec): void {
  strategy.type ??= 'RollingUpdate';
  if (strategy.type !== 'RollingUpdate') return;
  const ru = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
  for (const [k, v] of Object.entries(defaults)) ru[k] ??= v;
}

function strategyOf(spec: Spec, field: string): Spec {
  const s = spec[field];
  return isRecord(s) ? s : (spec[field] = {});
}

/** Applies the defaults of the object's kind in place (a copy the caller owns). */
export function defaultWorkload(o: KubeObject): void {
  const spec = specOf(o);
  if (spec === undefined) return;
  switch (o.kind) {
    case 'Deployment':
      spec.replicas ??= 1;
      rollingUpdate(strategyOf(spec, 'strategy'), { maxUnavailable: '25%', maxSurge: '25%' });
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      return;
    case 'ReplicaSet':
      spec.replicas ??= 1;
      return;
    case 'DaemonSet':
      rollingUpdate(strategyOf(spec, 'updateStrategy'), { maxUnavailable: 1, maxSurge: 0 });
      spec.revisionHistoryLimit ??= 10;
      return;
    case 'StatefulSet': {
      spec.podManagementPolicy ??= 'OrderedReady';
      const strategy = strategyOf(spec, 'updateStrategy');
      if (strategy.type === undefined) {
        strategy.type = 'RollingUpdate';
        strategy.rollingUpdate ??= {};
      }
      if (strategy.type === 'RollingUpdate' && isRecord(strategy.rollingUpdate)) strategy.rollingUpdate.partition ??= 0;
      const retention = strategyOf(spec, 'persistentVolumeClaimRetentionPolicy');
      retention.whenDeleted ??= 'Retain';
      retention.whenScaled ??= 'Retain';
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      return;
    }
    case 'Job':
      defaultJob(o, spec);
      return;
    default:
  }
}

function defaultJob(o: KubeObject, spec: Spec): void {
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? 2147483647 : 6;
  const templateLabels = isRecord(spec.template) && isRecord(spec.template.metadata) ? spec.template.metadata.labels : undefined;
  if (isRecord(templateLabels) && Object.keys(o.metadata?.labels ?? {}).length === 0 && o.metadata) {
    (o.metadata as { labels?: Record<string, string> }).labels = { ...(templateLabels as Record<string, string>) };
  }
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy !== undefined ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
}

const jobNameLabels = ['job-name', 'batch.kubernetes.io/job-name'];
const controllerUidLabels = ['controller-uid', 'batch.kubernetes.io/controller-uid'];

/** The Job strategy's generated selector and template labels (unless the selector is manual); needs the Job's uid. */
export function generateJobSelector(job: KubeObject): void {
  const spec = specOf(job);
  if (spec === undefined || spec.manualSelector === true || !isRecord(spec.template)) return;
  const template = spec.template;
  const meta = isRecord(template.metadata) ? template.metadata : (template.metadata = {});
  const labels = (isRecord(meta.labels) ? meta.labels : (meta.labels = {})) as Record<string, string>;
  for (const l of jobNameLabels) labels[l] ??= job.metadata?.name ?? '';
  for (const l of controllerUidLabels) labels[l] ??= job.metadata?.uid ?? '';
  const selector = isRecord(spec.selector) ? spec.selector : (spec.selector = {});
  const matchLabels = (isRecord(selector.matchLabels) ? selector.matchLabels : (selector.matchLabels = {})) as Record<string, string>;
  matchLabels['batch.kubernetes.io/controller-uid'] ??= job.metadata?.uid ?? '';
}
