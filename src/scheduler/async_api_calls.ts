// The metrics upstream's API dispatcher records for the calls it runs with SchedulerAsyncAPICalls
// on (pkg/scheduler/backend/api_dispatcher: api_dispatcher.go, call_queue.go): each call's result
// and duration by call type, and the calls waiting in its queue. Ours start when they are made, so
// a call is pending only until it starts, and the gauge reads 0 between calls.
import type { APICallResult, APICallType, SchedulerMetricsRecorder } from './metrics_recorder.js';

/** Runs the API calls the dispatcher would run, recording its metrics; null when the gate is off or nothing records. */
export type APICallRunner = <T>(callType: APICallType, call: () => Promise<T>) => Promise<T>;

export function apiCallRunner(metrics: SchedulerMetricsRecorder | null, gateOn: boolean, monotonicSeconds: () => number): APICallRunner | null {
  const observe = metrics?.observeAsyncAPICall?.bind(metrics);
  const pending = metrics?.addPendingAsyncAPICalls?.bind(metrics);
  if (!gateOn || !observe || !pending) return null;
  return async (callType, call) => {
    // Enqueued, then popped at once: the dispatcher's increment and decrement.
    pending(callType, 1);
    pending(callType, -1);
    const start = monotonicSeconds();
    let result: APICallResult = 'success';
    try {
      return await call();
    } catch (err) {
      result = 'error';
      throw err;
    } finally {
      observe(callType, result, monotonicSeconds() - start);
    }
  };
}
