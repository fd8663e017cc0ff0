// Diagnosis changes nothing where PostFilter plugins act on what Filter recorded: DynamicResources
// (deallocating a claim Filter found unavailable) and DefaultPreemption (dry runs on every node),
// on scenarios built so that only a diagnosed Filter run reaches DynamicResources on some nodes.
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { loadScenario } from '../src/sim/scenario/scenario.js';
import { assertDiagnosisChangesNothing } from './explain_diagnosis.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'diagnosis');

describe('diagnosis changes nothing (DRA and every PostFilter)', () => {
  for (const file of ['dra-claim-unavailable.yaml', 'dra-claim-preemption.yaml']) {
    it(file, () => assertDiagnosisChangesNothing(loadScenario(join(fixtures, file))));
  }
  it('scenarios/dra-gpu.yaml', () => assertDiagnosisChangesNothing(loadScenario(join(import.meta.dirname, '..', 'scenarios', 'dra-gpu.yaml'))));
});
