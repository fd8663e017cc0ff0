// What CLI commands share: output streams, exit codes, usage errors.

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processIO: CliIO = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** Exit status for bad input: a bad flag, configuration file or scenario. */
export const ExitBadInput = 2;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command takes its arguments (after the command name) and returns the exit status. */
export type Command = (argv: string[], io: CliIO) => Promise<number>;
