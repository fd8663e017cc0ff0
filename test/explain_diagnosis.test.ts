// Diagnosis changes no decision, on a sample of the fidelity corpus (the rest: the e2e suite's
// explain_diagnosis.e2e.test.ts).
import { describe, it } from 'node:test';
import { corpusFiles } from './fidelity_corpus.js';
import { assertDiagnosisChangesNoDecision, fastSample } from './explain_diagnosis.js';

describe('diagnosis changes no decision (fidelity corpus sample)', () => {
  for (const file of fastSample(corpusFiles())) it(file, () => assertDiagnosisChangesNoDecision(file));
});
