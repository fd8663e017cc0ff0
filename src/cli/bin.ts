#!/usr/bin/env node
// Entry point of the `kube-scheduler-ts` binary.
import { runCli } from './main.js';

// A reader that stops early (`explain ... | head`) closes the pipe: end quietly, as command-line
// tools do, instead of dying of the unhandled write error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

runCli(process.argv.slice(2)).then(
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
