// Server-side printing of the workload kinds and PodDisruptionBudgets: the columns of upstream's
// printers (pkg/printers/internalversion/printers.go printDeployment, printReplicaSet,
// printDaemonSet, printStatefulSet, printJob, printPodDisruptionBudget).
import { Selector } from '../api/labels.js';
import type { KubeObject, LabelSelector, PodSpec } from '../api/types.js';
import { age, ageColumn, humanDuration, nameColumn, type Cell, type Column, type Printer } from './table_columns.js';

interface WorkloadView extends KubeObject {
  spec?: {
    replicas?: number; completions?: number; parallelism?: number; selector?: LabelSelector;
    template?: { spec?: PodSpec }; minAvailable?: number | string; maxUnavailable?: number | string;
  };
  status?: Record<string, unknown> & { conditions?: { type: string; status: string }[] };
}

const wideColumns: Column[] = [
  { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.' },
  { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.' },
];
const selectorColumn: Column = { name: 'Selector', type: 'string', priority: 1, description: 'A label query over pods that should match the replica count.' };

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function selectorText(sel: LabelSelector | undefined): string {
  try {
    const s = Selector.compile(sel).toString();
    return s === '' ? '<none>' : s;
  } catch {
    return '<error>';
  }
}

function wideCells(o: WorkloadView): Cell[] {
  const containers = o.spec?.template?.spec?.containers ?? [];
  return [containers.map((c) => c.name).join(','), containers.map((c) => c.image ?? '').join(',')];
}

function intOrString(v: number | string | undefined): string {
  return v === undefined ? 'N/A' : String(v);
}

function jobStatus(o: WorkloadView): string {
  const has = (t: string) => (o.status?.conditions ?? []).some((c) => c.type === t && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (o.metadata?.deletionTimestamp) return 'Terminating';
  if (has('Suspended')) return 'Suspended';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function jobCompletions(o: WorkloadView): string {
  const succeeded = num(o.status?.succeeded);
  if (o.spec?.completions !== undefined) return `${succeeded}/${o.spec.completions}`;
  const parallelism = o.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(o: WorkloadView, now: number): string {
  const start = o.status?.startTime;
  if (typeof start !== 'string') return '';
  const end = o.status?.completionTime;
  return humanDuration((typeof end === 'string' ? Date.parse(end) : now) - Date.parse(start));
}

const view = (o: KubeObject) => o as WorkloadView;

export const workloadPrinters: Record<string, Printer> = {
  Deployment: {
    columns: [nameColumn, { name: 'Ready', type: 'string', description: 'Number of the pod with ready state' },
      { name: 'Up-to-date', type: 'string', description: 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.' },
      { name: 'Available', type: 'string', description: 'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.' },
      ageColumn, ...wideColumns, selectorColumn],
    cells: (o, now) => {
      const d = view(o);
      return [d.metadata?.name ?? '', `${num(d.status?.readyReplicas)}/${d.spec?.replicas ?? 0}`, num(d.status?.updatedReplicas), num(d.status?.availableReplicas),
        age(o, now), ...wideCells(d), selectorText(d.spec?.selector)];
    },
  },
  ReplicaSet: {
    columns: [nameColumn, { name: 'Desired', type: 'integer', description: 'Replicas is the number of desired pods.' },
      { name: 'Current', type: 'integer', description: 'Replicas is the most recently observed number of non-terminating pods.' },
      { name: 'Ready', type: 'integer', description: 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.' },
      ageColumn, ...wideColumns, selectorColumn],
    cells: (o, now) => {
      const rs = view(o);
      return [rs.metadata?.name ?? '', rs.spec?.replicas ?? 0, num(rs.status?.replicas), num(rs.status?.readyReplicas), age(o, now), ...wideCells(rs), selectorText(rs.spec?.selector)];
    },
  },
  DaemonSet: {
    columns: [nameColumn, { name: 'Desired', type: 'integer', description: 'The total number of nodes that should be running the daemon pod.' },
      { name: 'Current', type: 'integer', description: 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.' },
      { name: 'Ready', type: 'integer', description: 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.' },
      { name: 'Up-to-date', type: 'integer', description: 'The total number of nodes that are running updated daemon pod' },
      { name: 'Available', type: 'integer', description: 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.' },
      { name: 'Node Selector', type: 'string', description: 'NodeSelector is a selector which must be true for the pod to fit on a node.' },
      ageColumn, ...wideColumns, selectorColumn],
    cells: (o, now) => {
      const ds = view(o);
      const st = ds.status ?? {};
      const sel = Object.entries(ds.spec?.template?.spec?.nodeSelector ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
      return [ds.metadata?.name ?? '', num(st.desiredNumberScheduled), num(st.currentNumberScheduled), num(st.numberReady), num(st.updatedNumberScheduled),
        num(st.numberAvailable), sel === '' ? '<none>' : sel, age(o, now), ...wideCells(ds), selectorText(ds.spec?.selector)];
    },
  },
  StatefulSet: {
    columns: [nameColumn, { name: 'Ready', type: 'string', description: 'Number of the pod with ready state' }, ageColumn, ...wideColumns],
    cells: (o, now) => {
      const s = view(o);
      return [s.metadata?.name ?? '', `${num(s.status?.readyReplicas)}/${s.spec?.replicas ?? 0}`, age(o, now), ...wideCells(s)];
    },
  },
  Job: {
    columns: [nameColumn, { name: 'Status', type: 'string', description: 'Status of the job.' },
      { name: 'Completions', type: 'string', description: 'The number of pods which reached phase Succeeded.' },
      { name: 'Duration', type: 'string', description: 'Time required to complete the job.' }, ageColumn, ...wideColumns, selectorColumn],
    cells: (o, now) => {
      const j = view(o);
      return [j.metadata?.name ?? '', jobStatus(j), jobCompletions(j), jobDuration(j, now), age(o, now), ...wideCells(j), selectorText(j.spec?.selector)];
    },
  },
  PodDisruptionBudget: {
    columns: [nameColumn, { name: 'Min Available', type: 'string', description: 'The minimum number of pods that must be available.' },
      { name: 'Max Unavailable', type: 'string', description: 'The maximum number of pods that may be unavailable.' },
      { name: 'Allowed Disruptions', type: 'integer', description: 'Calculated number of pods that may be disrupted at this time.' }, ageColumn],
    cells: (o, now) => {
      const p = view(o);
      return [p.metadata?.name ?? '', intOrString(p.spec?.minAvailable), intOrString(p.spec?.maxUnavailable), num(p.status?.disruptionsAllowed), age(o, now)];
    },
  },
};
