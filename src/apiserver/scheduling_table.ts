// Server-side printing of the pod-group kinds: scheduling.k8s.io's Workload, PodGroup and
// CompositePodGroup (pkg/printers/internalversion/printers.go printWorkload, printPodGroup, printCompositePodGroup) and scheduler-plugins'
// PodGroup, printed from its CRD's additionalPrinterColumns as apiextensions-apiserver's table
// convertor does (a missing value is an empty cell, a date an age).
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';
import type { KubeObject } from '../api/types.js';
import { age, ageColumn, nameColumn, type Printer } from './table_columns.js';

/** The Status column of printPodGroup: Pending until scheduled once, then Scheduled or Unschedulable; a disruption's reason wins. */
function podGroupStatus(pg: PodGroup): string {
  const conditions = pg.status?.conditions ?? [];
  let status = 'Pending';
  const scheduled = conditions.find((c) => c.type === 'PodGroupInitiallyScheduled');
  if (scheduled !== undefined) status = scheduled.status === 'True' ? 'Scheduled' : 'Unschedulable';
  const disrupted = conditions.find((c) => c.type === 'DisruptionTarget');
  if (disrupted !== undefined) status = disrupted.reason ?? '';
  return status;
}

interface CoschedulingView extends KubeObject {
  spec?: { minMember?: number };
  status?: { phase?: string; running?: number; succeeded?: number; failed?: number };
}

export const schedulingPrinters: Record<string, Printer> = {
  Workload: { columns: [nameColumn, ageColumn], cells: (o, now) => [o.metadata?.name ?? '', age(o, now)] },
  PodGroup: {
    columns: [
      nameColumn,
      { name: 'Policy', type: 'string', description: 'schedulingPolicy defines the scheduling policy for this instance of the PodGroup. Controllers are expected to fill this field by copying it from a PodGroupTemplate.' },
      { name: 'Workload', type: 'string', description: 'Name of the referenced Workload object' },
      { name: 'Status', type: 'string', description: 'Status of the PodGroup' },
      ageColumn,
    ],
    cells: (o, now) => {
      const pg = o as unknown as PodGroup;
      const policy = pg.spec.schedulingPolicy.gang !== undefined ? 'Gang' : 'Basic';
      return [o.metadata?.name ?? '', policy, pg.spec.workloadRef?.workloadName ?? '<none>', podGroupStatus(pg), age(o, now)];
    },
  },
  CompositePodGroup: {
    columns: [
      nameColumn,
      { name: 'Policy', type: 'string', description: 'schedulingPolicy defines the scheduling policy for this instance of the CompositePodGroup. Controllers are expected to fill this field by copying it from a CompositePodGroupTemplate. This field is immutable.' },
      { name: 'Workload', type: 'string', description: 'Name of the referenced Workload object' },
      ageColumn,
    ],
    cells: (o, now) => {
      const cpg = o as unknown as CompositePodGroup;
      const policy = cpg.spec.schedulingPolicy.gang !== undefined ? 'Gang' : 'Basic';
      return [o.metadata?.name ?? '', policy, cpg.spec.workloadRef?.workloadName ?? '<none>', age(o, now)];
    },
  },
  'PodGroup.scheduling.x-k8s.io': {
    columns: [
      nameColumn,
      { name: 'Phase', type: 'string', description: 'Current phase of PodGroup.' },
      { name: 'MinMember', type: 'integer', description: 'MinMember defines the minimal number of members/tasks to run the pod group.' },
      { name: 'Running', type: 'integer', description: 'The number of actively running pods.' },
      { name: 'Succeeded', type: 'integer', description: 'The number of pods which reached phase Succeeded.' },
      { name: 'Failed', type: 'integer', description: 'The number of pods which reached phase Failed.' },
      { name: 'Age', type: 'date', description: 'Age is the time PodGroup was created.' },
    ],
    cells: (o, now) => {
      const pg = o as CoschedulingView;
      return [o.metadata?.name ?? '', pg.status?.phase ?? null, pg.spec?.minMember ?? null, pg.status?.running ?? null,
        pg.status?.succeeded ?? null, pg.status?.failed ?? null, age(o, now)];
    },
  },
};
