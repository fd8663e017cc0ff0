// `npm run test:e2e`: the end-to-end tests that need real time (HTTP watches over loopback,
// leader election, kubectl, child processes), every `*.e2e.test.ts`, in one process.
import { loadSuite } from './test_files.js';

await loadSuite('e2e');
