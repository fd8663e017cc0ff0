// scheduling.k8s.io/v1beta1 PodGroup and Workload validation: each case is one object and the error
// lines kube-apiserver v1.37.2 reports for it (test/e2e/composite_validation.e2e.test.ts checks
// such lines against the pinned kube-apiserver itself).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkCreate, checkUpdate, fieldErrorString, kindValidation } from './index.js';

const errorsOf = (kind: string, obj: unknown): string[] => {
  const r = checkCreate(kindValidation(kind)!, obj);
  return r.ok ? [] : r.errors.map(fieldErrorString);
};

const group = (spec: Record<string, unknown>) => ({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'g', namespace: 'default' }, spec });

describe('PodGroup validation', () => {
  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    { name: 'a gang', spec: { schedulingPolicy: { gang: { minCount: 4 } } }, want: [] },
    { name: 'a basic group', spec: { schedulingPolicy: { basic: {} } }, want: [] },
    { name: 'no policy', spec: { schedulingPolicy: {} }, want: ['spec.schedulingPolicy: Invalid value: "": must specify one of: `basic`, `gang`'] },
    {
      name: 'both policies', spec: { schedulingPolicy: { basic: {}, gang: { minCount: 1 } } },
      want: ['spec.schedulingPolicy: Invalid value: "{basic, gang}": must specify exactly one of: `basic`, `gang`'],
    },
    // +k8s:required on an int32: zero is unset.
    { name: 'minCount zero', spec: { schedulingPolicy: { gang: { minCount: 0 } } }, want: ['spec.schedulingPolicy.gang.minCount: Required value'] },
    { name: 'minCount negative', spec: { schedulingPolicy: { gang: { minCount: -1 } } }, want: ['spec.schedulingPolicy.gang.minCount: Invalid value: -1: must be greater than or equal to 1'] },
    {
      name: 'two topology constraints', spec: { schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'rack' }, { key: 'zone' }] } },
      want: ['spec.schedulingConstraints.topology: Too many: 2: must have at most 1 item'],
    },
    // The strategy drops the field while CompositePodGroup is off; what reaches validation is allowed.
    {
      name: 'a parent composite group without a workload reference', spec: { schedulingPolicy: { basic: {} }, parentCompositePodGroupName: 'p' },
      want: ['spec.workloadRef: Required value: must be set when parentCompositePodGroupName is set'],
    },
    {
      name: 'a parent composite group with a workload reference',
      spec: { schedulingPolicy: { basic: {} }, parentCompositePodGroupName: 'p', workloadRef: { workloadName: 'w', templateName: 't' } },
      want: [],
    },
    {
      name: 'a bad parent name', spec: { schedulingPolicy: { basic: {} }, parentCompositePodGroupName: 'P_1', workloadRef: { workloadName: 'w', templateName: 't' } },
      want: ['spec.parentCompositePodGroupName: Invalid value: "P_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')'],
    },
    {
      name: 'a bad preemption policy', spec: { schedulingPolicy: { basic: {} }, preemptionPolicy: 'Sometimes' },
      want: ['spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsOf('PodGroup', group(c.spec)), c.want));

  it('refuses a change of the spec', () => {
    const old = group({ schedulingPolicy: { gang: { minCount: 2 } } });
    const r = checkUpdate(kindValidation('PodGroup')!, old as never, group({ schedulingPolicy: { gang: { minCount: 3 } } }));
    assert.deepEqual(r.ok ? [] : r.errors.map(fieldErrorString), ['spec: Invalid value: null: field is immutable']);
  });
});

describe('Workload validation', () => {
  const workload = (templates: unknown[]) => ({ kind: 'Workload', metadata: { name: 'w', namespace: 'default' }, spec: { podGroupTemplates: templates } });
  it('accepts named templates', () => {
    assert.deepEqual(errorsOf('Workload', workload([{ name: 'workers', schedulingPolicy: { gang: { minCount: 8 } } }])), []);
  });
  it('refuses duplicate template names and a missing list', () => {
    const t = { name: 'a', schedulingPolicy: { basic: {} } };
    assert.deepEqual(errorsOf('Workload', workload([t, t])), ['spec.podGroupTemplates[1]: Duplicate value: {"name":"a","schedulingPolicy":{"basic":{}},"schedulingConstraints":null}']);
    assert.deepEqual(errorsOf('Workload', workload([])), ['spec: Invalid value: "": must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`']);
  });
});
