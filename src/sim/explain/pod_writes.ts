// An attempt's timeline as the differential harness records it (upstream/internal/cluster's
// Writes): the writes the attempt caused to pods, oldest first, and the preemptor's PreEnqueue
// verdict at the moment its first victim is deleted (asynchronous preemption holds it then).
import type { Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import type { MemoryCluster } from '../../cluster/memory/store.js';
import type { VersionedEvent } from '../../cluster/memory/versioned_event.js';
import type { Status } from '../../framework/status.js';

/** The preemptor's PreEnqueue verdict (null: it may enter activeQ). */
export type GateCheck = (pod: Pod) => Status | null;

/**
 * Entries, in the harness's words: `nominate ns/name node`, `unnominate ns/name` (a status write
 * that sets or clears nominatedNodeName; a binding's own clearing is the `bind` entry),
 * `delete ns/name`, `bind ns/name node`, `gate ns/name Plugin: message`.
 */
export class PodWriteRecorder {
  private writes: string[] = [];
  private preemptor: Pod | null = null;
  private gateRead = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly cluster: MemoryCluster, private readonly gate: GateCheck) {
    this.unsubscribe = cluster.subscribe((e) => this.observe(e));
    // As the harness does: before the victim's deletion is stored, so the informer still has it.
    cluster.beforePodDelete = () => this.readGate();
  }

  /** Starts a new attempt of `preemptor`: what was recorded before is dropped. */
  start(preemptor: Pod | null): void {
    this.writes = [];
    this.preemptor = preemptor;
    this.gateRead = false;
  }

  /** The attempt's entries so far. */
  take(): string[] {
    const out = this.writes;
    this.writes = [];
    return out;
  }

  /** An entry the explain run observed itself: `requeue ns/name`, a victim preempted in its binding cycle going back to the queue. */
  note(entry: string): void {
    this.writes.push(entry);
  }

  stop(): void {
    this.unsubscribe();
    this.cluster.beforePodDelete = null;
  }

  private observe({ event }: VersionedEvent): void {
    if (event.kind !== 'Pod') return;
    const pod = event.object as Pod;
    const key = podKey(pod);
    if (event.type === 'DELETED') {
      this.writes.push(`delete ${key}`);
      return;
    }
    if (event.type !== 'MODIFIED' || !event.oldObject) return;
    const old = event.oldObject as Pod;
    const node = pod.spec.nodeName ?? '';
    if ((old.spec.nodeName ?? '') === '' && node !== '') {
      this.writes.push(`bind ${key} ${node}`);
      return;
    }
    const before = old.status?.nominatedNodeName ?? '';
    const after = pod.status?.nominatedNodeName ?? '';
    if (before === after) return;
    this.writes.push(after === '' ? `unnominate ${key}` : `nominate ${key} ${after}`);
  }

  private readGate(): void {
    if (this.gateRead || this.preemptor === null) return;
    this.gateRead = true;
    const s = this.gate(this.preemptor);
    if (s !== null) this.writes.push(`gate ${podKey(this.preemptor)} ${s.plugin}: ${s.message()}`);
  }
}
