#!/usr/bin/env node
// Entry point of the `kube-scheduler-ts` binary. `run` sends its first node and pod lists before
// the scheduler's code (dist/core.js) loads, so that the API server encodes them meanwhile.
import type { FirstLists } from './commands/run_first_lists.js';

const argv = process.argv.slice(2);
const asksHelp = argv.includes('-h') || argv.includes('--help');
const early: FirstLists | null | undefined = argv[0] === 'run' && !asksHelp
  ? (await import('./commands/run_first_lists.js')).startFirstLists(argv.slice(1))
  : undefined;

// A reader that stops early (`explain ... | head`) closes the pipe: end quietly, as command-line
// tools do, instead of dying of the unhandled write error. After the first lists: touching
// process.stdout creates its stream (~4 ms), which the lists need not wait for (nothing is
// written before this line).
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
// The lists' requests out before the core loads: their connections' TLS handshakes need this
// thread, which loading the core holds for ~60 ms (run_first_lists.ts, FirstLists.sent).
if (early) await early.sent;
const { runCli } = await import('./main.js');

runCli(argv, undefined, early).then(
  (code) => {
    // A failure ends the process at once, whatever is still pending (`run` after losing its
    // lease must not let a retried request land later); stdout and stderr are synchronous here.
    if (code !== 0) process.exit(code);
  },
  (err: Error) => {
    process.stderr.write(`internal error: ${err.stack ?? err.message}\n`);
    process.exitCode = 1;
  },
);
