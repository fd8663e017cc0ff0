// Diagnosis changes no decision, on the fidelity corpus scenarios the fast suite's sample leaves
// out (explain_diagnosis.test.ts): a sweep too long for `npm test`.
import { describe, it } from 'node:test';
import { corpusFiles } from './fidelity_corpus.js';
import { assertDiagnosisChangesNoDecision, fastSample } from './explain_diagnosis.js';

describe('diagnosis changes no decision (fidelity corpus beyond the fast sample)', () => {
  const sample = new Set(fastSample(corpusFiles()));
  for (const file of corpusFiles().filter((f) => !sample.has(f))) it(file, () => assertDiagnosisChangesNoDecision(file));
});
