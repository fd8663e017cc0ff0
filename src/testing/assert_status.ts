// Test assertion shared by plugin tests: a Status with the wanted code and single reason, or none.
import assert from 'node:assert/strict';
import type { Code, Status } from '../framework/status.js';

/** `code` null means success (no status); a given `reason` must be the status's only reason. */
export function assertStatus(got: Status | null | undefined, code: Code | null, reason?: string): void {
  if (code === null) {
    assert.equal(got ?? null, null);
    return;
  }
  assert.equal(got?.code, code);
  if (reason !== undefined) assert.deepEqual(got?.reasons, [reason]);
}
