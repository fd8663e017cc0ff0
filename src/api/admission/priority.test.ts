// The Priority admission plugin's decisions (plugin/pkg/admission/priority/admission_test.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PriorityClass } from '../types.js';
import { admitGroupPriority, priorityAdmissionError, priorityClassAdmissionError, resolvePodPriority, type AdmittedGroupPriority } from './priority.js';
import { makePod } from '../../testing/builders.js';

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({ metadata: { name }, value, ...extra });
const pod = (spec: Partial<Pod['spec']> = {}): Pod => makePod('p', { spec });

describe('Priority admission', () => {
  const classes = [pc('low', 10), pc('high', 1000, { preemptionPolicy: 'Never' }), pc('default', 5, { globalDefault: true })];

  const table: { name: string; pod: Pod; classes: PriorityClass[]; want: string | null }[] = [
    { name: 'a known class admits the pod', pod: pod({ priorityClassName: 'low' }), classes, want: null },
    { name: 'an unknown class is refused', pod: pod({ priorityClassName: 'gold' }), classes, want: 'no PriorityClass with name gold was found' },
    { name: 'the built-in system classes resolve without objects', pod: pod({ priorityClassName: 'system-node-critical' }), classes: [], want: null },
    { name: 'a stated priority must be the class value', pod: pod({ priorityClassName: 'low', priority: 11 }), classes,
      want: 'the integer value of priority (11) must not be provided in pod spec; priority admission controller computed 10 from the given PriorityClass name' },
    { name: 'without a class, a stated priority must be the default', pod: pod({ priority: 100 }), classes: [],
      want: 'the integer value of priority (100) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name' },
    { name: 'a stated preemption policy must be the class one', pod: pod({ priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' }), classes,
      want: 'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name' },
  ];
  for (const c of table) {
    it(c.name, () => assert.equal(priorityAdmissionError(c.pod, c.classes), c.want));
  }

  it('gives a pod without a class the global default (the lowest value when several claim it)', () => {
    assert.deepEqual(resolvePodPriority(pod(), classes), { priority: 5, priorityClassName: 'default', preemptionPolicy: undefined });
    const two = [...classes, pc('other-default', 1, { globalDefault: true })];
    assert.deepEqual(resolvePodPriority(pod(), two), { priority: 1, priorityClassName: 'other-default', preemptionPolicy: undefined });
    assert.deepEqual(resolvePodPriority(pod(), []), { priority: 0, priorityClassName: undefined, preemptionPolicy: undefined });
  });

  it('allows one global default class', () => {
    assert.equal(priorityClassAdmissionError(pc('second', 1, { globalDefault: true }), classes), 'PriorityClass default is already marked as default. Only one default can exist');
    assert.equal(priorityClassAdmissionError(pc('plain', 1), classes), null);
  });
});

describe('Priority admission of pod groups (admitPodGroup, admitCompositePodGroup)', () => {
  const byDefault = pc('default1', 1000, { globalDefault: true });
  const plain = pc('nondefault1', 2000);
  const lower = pc('lower', 2000, { globalDefault: true, preemptionPolicy: 'PreemptLowerPriority' });
  const never = pc('never', 50, { preemptionPolicy: 'Never' });
  type Spec = { priorityClassName?: string; priority?: number; preemptionPolicy?: 'PreemptLowerPriority' | 'Never' };
  const table: { name: string; spec: Spec; classes: PriorityClass[]; policy?: boolean; want: AdmittedGroupPriority | string }[] = [
    { name: 'no class: the global default class and its value', spec: {}, classes: [byDefault, plain],
      want: { priorityClassName: 'default1', priority: 1000, preemptionPolicy: undefined } },
    { name: 'a named class gives its value', spec: { priorityClassName: 'nondefault1' }, classes: [byDefault, plain],
      want: { priorityClassName: 'nondefault1', priority: 2000, preemptionPolicy: undefined } },
    { name: 'an unknown class is refused', spec: { priorityClassName: 'non-existent' }, classes: [byDefault, plain],
      want: 'no PriorityClass with name non-existent was found' },
    { name: 'no class and no default: priority 0, no class name', spec: {}, classes: [plain],
      want: { priorityClassName: undefined, priority: 0, preemptionPolicy: undefined } },
    { name: 'a stated priority equal to the computed one is kept', spec: { priorityClassName: 'nondefault1', priority: 2000 }, classes: [plain],
      want: { priorityClassName: 'nondefault1', priority: 2000, preemptionPolicy: undefined } },
    { name: 'a stated priority unlike the computed one is refused', spec: { priorityClassName: 'nondefault1', priority: 9999 }, classes: [plain],
      want: 'priority set in the pod group (9999) must match the priority computed (2000) based on the priority class set in the spec' },
    { name: 'a stated priority without a class must be the default (0 without one)', spec: { priority: 100 }, classes: [],
      want: 'priority set in the pod group (100) must match the priority computed (0) based on the priority class set in the spec' },
    { name: 'PodGroupPreemptionPolicy off: a stated policy is not checked nor filled', spec: { priorityClassName: 'lower', preemptionPolicy: 'Never' }, classes: [lower],
      want: { priorityClassName: 'lower', priority: 2000, preemptionPolicy: undefined } },
    { name: 'PodGroupPreemptionPolicy on: no stated policy gets the class one', spec: { priorityClassName: 'lower' }, classes: [lower], policy: true,
      want: { priorityClassName: 'lower', priority: 2000, preemptionPolicy: 'PreemptLowerPriority' } },
    { name: 'PodGroupPreemptionPolicy on: a group stating Never of a class Never keeps it', spec: { priorityClassName: 'never', preemptionPolicy: 'Never' }, classes: [never], policy: true,
      want: { priorityClassName: 'never', priority: 50, preemptionPolicy: 'Never' } },
    { name: 'PodGroupPreemptionPolicy on: a group of a class Never stating nothing was defaulted to PreemptLowerPriority, refused', spec: { priorityClassName: 'never' }, classes: [never], policy: true,
      want: 'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod group spec; priority admission controller computed Never from the given PriorityClass name' },
    { name: 'PodGroupPreemptionPolicy on: a stated policy equal to the class one is kept', spec: { priorityClassName: 'lower', preemptionPolicy: 'PreemptLowerPriority' }, classes: [lower], policy: true,
      want: { priorityClassName: 'lower', priority: 2000, preemptionPolicy: 'PreemptLowerPriority' } },
    { name: 'PodGroupPreemptionPolicy on: a stated policy unlike the class one is refused', spec: { priorityClassName: 'lower', preemptionPolicy: 'Never' }, classes: [lower], policy: true,
      want: 'the string value of PreemptionPolicy (Never) must not be provided in pod group spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name' },
    { name: 'PodGroupPreemptionPolicy on, no default class: PreemptLowerPriority', spec: {}, classes: [], policy: true,
      want: { priorityClassName: undefined, priority: 0, preemptionPolicy: 'PreemptLowerPriority' } },
  ];
  for (const c of table) {
    it(c.name, () => {
      const r = admitGroupPriority(c.spec, c.classes, { noun: 'pod group', preemptionPolicy: c.policy === true });
      assert.deepEqual('error' in r ? r.error : r, c.want);
    });
  }

  it('names a composite pod group in its messages', () => {
    const r = admitGroupPriority({ priorityClassName: 'nondefault1', priority: 1 }, [plain], { noun: 'composite pod group', preemptionPolicy: false });
    assert.deepEqual(r, { error: 'priority set in the composite pod group (1) must match the priority computed (2000) based on the priority class set in the spec' });
  });
});
