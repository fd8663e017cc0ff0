#!/usr/bin/env node
// Entry point of the `kube-scheduler-ts` binary.
import { runCli } from './main.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`internal error: ${err.stack ?? err.message}\n`);
    process.exitCode = 1;
  },
);
