// Core v1 Events and events.k8s.io/v1 Events are one stored resource seen through two APIs; this
// converts between the shapes (pkg/apis/events/v1/conversion.go).
import type { KubeObject } from '../api/types.js';

type Obj = Record<string, unknown>;

/** events.k8s.io/v1 field ↔ core v1 field, for fields whose names differ. */
const renames: readonly [string, string][] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

/** Returns the event in the shape of `apiVersion` ("v1" or "events.k8s.io/v1"). */
export function convertEvent(e: KubeObject, apiVersion: string): KubeObject {
  const from = e.apiVersion ?? 'v1';
  if (from === apiVersion) return e;
  const toCore = apiVersion === 'v1';
  const out: Obj = { ...(e as Obj), apiVersion, kind: 'Event' };
  for (const [v1Name, coreName] of renames) {
    const src = toCore ? v1Name : coreName;
    const dst = toCore ? coreName : v1Name;
    if (src in out) {
      out[dst] = out[src];
      delete out[src];
    }
  }
  return out as KubeObject;
}
