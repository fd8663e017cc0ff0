// For the tests of the CLI commands: `serve` started in the background, stopped on demand.
import type { Serving } from '../../sim/serve/serve.js';
import type { CliIO } from '../io.js';
import { serveCommand } from './serve.js';

export interface BackgroundServe {
  /** The served cluster, once it listens; rejects if the command ends before it serves. */
  serving: Promise<Serving>;
  /** The command's exit code, once stopped. */
  done: Promise<number>;
  stop: () => void;
}

export function serveInBackground(argv: string[], io: CliIO): BackgroundServe {
  let stop!: () => void;
  const stopSignal = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let listening!: (s: Serving) => void;
  const started = new Promise<Serving>((resolve) => {
    listening = resolve;
  });
  const done = serveCommand(argv, io, { stopSignal, onServing: listening });
  const ended = done.then((code) => Promise.reject(new Error(`serve ended with exit code ${code} before serving`)));
  return { serving: Promise.race([started, ended]), done, stop };
}
