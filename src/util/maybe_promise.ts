// A value now, or later when it comes from I/O (an extender). The scheduling cycle is one code
// path over such values: it stays synchronous until a step really returns a promise (the shape of
// hono's compose, which checks once per step instead of awaiting everything).

export type MaybePromise<T> = T | Promise<T>;

/** Calls `next` with the value at once when it is not a promise, else once it resolves. */
export function andThen<T, R>(value: MaybePromise<T>, next: (v: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
