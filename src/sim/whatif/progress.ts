// How far a long what-if run (capacity, compare) has got, for a progress line on stderr.

/**
 * Called as work advances: `done` of `total` units of `what` ("nodes tried", "pods attempted
 * under b.yaml"); `total` is 0 when not known in advance. Calls are frequent: listeners throttle.
 */
export type ProgressListener = (what: string, done: number, total: number) => void;
