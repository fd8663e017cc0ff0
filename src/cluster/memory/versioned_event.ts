// The store's change records as its API-server side sees them (with versions), in a module of
// their own so the PV controller can read them without importing the store.
import type { WatchEvent } from '../types.js';

/** One change with the resourceVersion it was made at (a DELETED change gets the deletion's version). */
export interface VersionedEvent {
  readonly rv: number;
  readonly event: WatchEvent;
}

export type VersionedHandler = (e: VersionedEvent) => void;
