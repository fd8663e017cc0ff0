// `npm test`: the fast, deterministic suite (every `*.test.ts` but the `*.e2e.test.ts`) in one
// process, since starting a TypeScript loader per file costs more than the tests themselves.
import { loadSuite } from './test_files.js';

await loadSuite('fast');
