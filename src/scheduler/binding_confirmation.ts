// Where a pod is after a binding whose answer was lost. Upstream (schedule_one.go
// handleBindingCycleError) forgets the assumed pod on any Bind error, which frees its room until
// the informer shows the binding landed; here the room stays taken until the API server (a read of
// the pod) or the informer (the pod seen bound or deleted) says where the pod is.
import { podKey, type Pod } from '../api/types.js';
import { isRefusal } from '../cluster/types.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import { Code, type Status } from '../framework/status.js';
import type { Clock, TimerHandle } from '../util/clock.js';

/** Where the pod turned out to be; `stopped` when the scheduler stopped before anyone knew. */
type BindingOutcome =
  | { readonly kind: 'bound' }
  | { readonly kind: 'boundElsewhere'; readonly node: string }
  | { readonly kind: 'unbound' }
  | { readonly kind: 'gone' }
  | { readonly kind: 'stopped' };

/**
 * Whether a failed Bind step may still have bound the pod: true unless a plugin rejected it or
 * the API server answered with a refusal somewhere in the error's cause chain.
 */
export function bindingMayHaveLanded(status: Status): boolean {
  if (status.code !== Code.Error) return false;
  for (let err: unknown = status.error, depth = 0; err instanceof Error && depth < 8; err = err.cause, depth++) {
    if (isRefusal(err)) return false;
  }
  return true;
}

interface BindingConfirmationOptions {
  /** The pod as the API server has it now; null when it does not exist. */
  readPod(namespace: string, name: string): Promise<Pod | null>;
  /**
   * The pod as the informer last showed it assigned; null when the informer showed it deleted;
   * undefined while the informer has not shown either (the pod is still only assumed).
   */
  informerView(pod: Pod): Pod | null | undefined;
  clock: Clock;
  log(level: number, msg: string): void;
  /** First wait after a failed read; doubles up to `maxRetryDelayMs`. */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
}

interface Pending {
  readonly host: string;
  outcome: BindingOutcome | null;
  timer: TimerHandle | null;
  /** Ends the wait between two reads. */
  wake: (() => void) | null;
  readonly resolve: (o: BindingOutcome) => void;
}

const defaultInitialRetryDelayMs = 200;
const defaultMaxRetryDelayMs = 10_000;

/** The confirmations in flight, by pod uid: each settles once, by a read or by the informer, whichever comes first. */
export class BindingConfirmations {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly o: BindingConfirmationOptions) {}

  get size(): number {
    return this.pending.size;
  }

  /**
   * What the informer has shown already, else reads the pod until the API server answers
   * (retrying with backoff, forever) or the informer tells first.
   */
  confirm(pod: Pod, host: string): Promise<BindingOutcome> {
    const uid = uidOf(pod);
    const seen = this.o.informerView(pod);
    if (seen !== undefined) return Promise.resolve(outcomeOf(seen, uid, host));
    return new Promise<BindingOutcome>((resolve) => {
      const p: Pending = { host, outcome: null, timer: null, wake: null, resolve };
      this.pending.set(uid, p);
      void this.readUntilKnown(pod, uid, p);
    });
  }

  /** The informer saw the pod assigned to a node, or deleted: settles its confirmation, if one is in flight. */
  observe(pod: Pod, deleted: boolean): void {
    if (this.pending.size === 0) return;
    const uid = uidOf(pod);
    const p = this.pending.get(uid);
    if (!p) return;
    const node = pod.spec.nodeName ?? '';
    if (deleted) this.settle(uid, p, { kind: 'gone' });
    else if (node !== '') this.settle(uid, p, node === p.host ? { kind: 'bound' } : { kind: 'boundElsewhere', node });
  }

  /** Ends every confirmation in flight (the scheduler stops). */
  stop(): void {
    for (const [uid, p] of this.pending) this.settle(uid, p, { kind: 'stopped' });
  }

  private settle(uid: string, p: Pending, outcome: BindingOutcome): void {
    if (p.outcome !== null) return;
    p.outcome = outcome;
    this.pending.delete(uid);
    if (p.timer !== null) this.o.clock.clearTimeout(p.timer);
    p.wake?.();
    p.resolve(outcome);
  }

  private async readUntilKnown(pod: Pod, uid: string, p: Pending): Promise<void> {
    const namespace = pod.metadata.namespace ?? 'default';
    const name = pod.metadata.name ?? '';
    let delayMs = this.o.initialRetryDelayMs ?? defaultInitialRetryDelayMs;
    const maxDelayMs = this.o.maxRetryDelayMs ?? defaultMaxRetryDelayMs;
    while (p.outcome === null) {
      let current: Pod | null;
      try {
        current = await this.o.readPod(namespace, name);
      } catch (err) {
        if (p.outcome !== null) return;
        this.o.log(2, `reading pod ${namespace}/${name} to confirm its binding to ${p.host} failed, retrying in ${delayMs}ms: ${thrownMessage(err)}`);
        await this.wait(p, delayMs);
        delayMs = Math.min(delayMs * 2, maxDelayMs);
        continue;
      }
      this.settle(uid, p, outcomeOf(current, uid, p.host));
    }
  }

  private wait(p: Pending, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      p.wake = resolve;
      p.timer = this.o.clock.setTimeout(() => {
        p.timer = null;
        p.wake = null;
        resolve();
      }, ms);
    });
  }
}

/** Where the API server's copy of the pod says it is; a pod of another uid under the same name is a new pod. */
function outcomeOf(current: Pod | null, uid: string, host: string): BindingOutcome {
  if (current === null || uidOf(current) !== uid) return { kind: 'gone' };
  const node = current.spec.nodeName ?? '';
  if (node === '') return { kind: 'unbound' };
  return node === host ? { kind: 'bound' } : { kind: 'boundElsewhere', node };
}

/** The key the cache keeps the pod under. */
function uidOf(pod: Pod): string {
  return pod.metadata.uid ?? podKey(pod);
}
