// What the runtime reports of an exception a plugin threw: plugins may throw anything, not only Errors.

/** The message of anything thrown. */
export function thrownMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
