// The Priority admission plugin's decisions (plugin/pkg/admission/priority/admission_test.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PriorityClass } from '../types.js';
import { priorityAdmissionError, priorityClassAdmissionError, resolvePodPriority } from './priority.js';
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
