// The unschedulable pods pool (backend/queue/scheduling_queue.go unschedulablePods), with an index
// of the pods each event can concern, built from the plugins' EventPodIndex declarations.
import type { Pod } from '../api/types.js';
import { ActionTypeAll, type ClusterEvent, type ClusterEventWithHint, type EventPodIndex, type EventResource, eventMatches } from '../framework/events.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';

/** The registrations of the profile a pod belongs to (plugin name → events), undefined for none. */
type EventsOfPod = (pod: Pod) => ReadonlyMap<string, readonly ClusterEventWithHint[]> | undefined;

interface IndexedRegistration {
  readonly index: EventPodIndex;
  /** Pod key → entry keys of the pods indexed under it. */
  readonly pods: Map<string, Set<string>>;
}

/** What one incoming event resource's index holds. */
interface ResourceIndex {
  readonly resource: EventResource;
  /** Pods some registration without an index may move, or that no key can rule out. */
  readonly always: Set<string>;
  readonly registrations: Map<ClusterEventWithHint, IndexedRegistration>;
}

interface Entry {
  /** Insertion order: a Map's iteration order, which the unindexed scan follows. */
  readonly seq: number;
  qp: QueuedPodInfo;
  /** The sets this entry's key was added to, to take it out again. */
  refs: IndexRef[];
}

/** One set an entry's key is in, and for a pod key's set the map that holds it. */
interface IndexRef {
  readonly set: Set<string>;
  readonly owner: Map<string, Set<string>> | null;
  readonly podKey: string;
}

/** The incoming event resources a registration's resource stands for. */
function incomingResources(r: EventResource): EventResource[] {
  return r === 'Pod' ? ['AssignedPod', 'UnscheduledPod'] : [r];
}

/**
 * A map of entry key → queued pod that keeps insertion order and, per event resource some plugin
 * indexed, which pods an event of it can move. `candidates` answers a superset of the pods whose
 * hints would not all say QueueSkip, in the order a scan of the map meets them.
 */
export class UnschedulablePods {
  private readonly entries = new Map<string, Entry>();
  /**
   * The pods a cluster event may move, in the entries' order: every entry but those only an
   * update of the pod itself can free (scheduling gates). Thousands of gated pods then cost an
   * event nothing, and the scan is the Map's own iterator, not a generator.
   */
  private readonly scanned = new Map<string, QueuedPodInfo>();
  private readonly resources = new Map<EventResource, ResourceIndex>();
  private seq = 0;

  /**
   * `waitsForOwnUpdate` tells the pods no cluster event moves (they stay out of `scannable`);
   * the queue asks it again whenever an entry is set or refreshed.
   */
  constructor(
    registrations: Iterable<ReadonlyMap<string, readonly ClusterEventWithHint[]>>,
    private readonly eventsOf: EventsOfPod,
    private readonly waitsForOwnUpdate: (qp: QueuedPodInfo) => boolean = () => false,
  ) {
    for (const byPlugin of registrations) {
      for (const regs of byPlugin.values()) {
        for (const reg of regs) {
          if (!reg.podIndex || !reg.queueingHintFn || reg.event.resource === 'WildCard') continue;
          for (const resource of incomingResources(reg.event.resource)) {
            let ri = this.resources.get(resource);
            if (!ri) {
              ri = { resource, always: new Set(), registrations: new Map() };
              this.resources.set(resource, ri);
            }
            ri.registrations.set(reg, { index: reg.podIndex, pods: new Map() });
          }
        }
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.entries.get(key)?.qp;
  }

  *values(): IterableIterator<QueuedPodInfo> {
    for (const e of this.entries.values()) yield e.qp;
  }

  /** The pods a cluster event may move (all but those waiting for their own update), in order. */
  scannable(): IterableIterator<QueuedPodInfo> {
    return this.scanned.values();
  }

  /** Adds or replaces the pod under `key`; a replaced one keeps its place in the order. */
  set(key: string, qp: QueuedPodInfo): void {
    const found = this.entries.get(key);
    if (found) {
      this.unindex(key, found);
      found.qp = qp;
      this.index(key, found);
      this.rescan(key, qp);
      return;
    }
    const entry: Entry = { seq: ++this.seq, qp, refs: [] };
    this.entries.set(key, entry);
    this.index(key, entry);
    if (!this.waitsForOwnUpdate(qp)) this.scanned.set(key, qp);
  }

  /** Keeps `scanned` in step with an entry set again, in the entries' order. */
  private rescan(key: string, qp: QueuedPodInfo): void {
    const waits = this.waitsForOwnUpdate(qp);
    if (this.scanned.has(key)) {
      if (waits) this.scanned.delete(key);
      else this.scanned.set(key, qp);
      return;
    }
    if (waits) return;
    // An entry that stops waiting takes its old place: rebuild the scan order (rare: gates are
    // only ever removed, and that moves the pod out of this pool).
    this.scanned.clear();
    for (const [k, e] of this.entries) if (!this.waitsForOwnUpdate(e.qp)) this.scanned.set(k, e.qp);
  }

  /** The pod under `key` changed in place (its object, rejecting plugins or gate): index it again. */
  refresh(key: string): void {
    const found = this.entries.get(key);
    if (found) this.set(key, found.qp);
  }

  delete(key: string): boolean {
    const found = this.entries.get(key);
    if (!found) return false;
    this.unindex(key, found);
    this.scanned.delete(key);
    return this.entries.delete(key);
  }

  /**
   * The pods `event` may move (never those waiting for their own update), in map order, or null when the index cannot narrow it (a wildcard
   * or unindexed resource, or an index that says every pod): then every pod must be asked.
   */
  candidates(event: ClusterEvent, oldObj: unknown, newObj: unknown): QueuedPodInfo[] | null {
    const ri = this.resources.get(event.resource);
    if (!ri) return null;
    if (this.entries.size === 0) return [];
    const keys = new Set(ri.always);
    for (const [reg, ir] of ri.registrations) {
      if (!eventMatches(reg.event, event)) continue;
      const eventKeys = ir.index.eventKeys(oldObj, newObj);
      if (eventKeys === null) return null;
      for (const k of eventKeys) for (const entryKey of ir.pods.get(k) ?? []) keys.add(entryKey);
    }
    const found: Entry[] = [];
    for (const k of keys) {
      const e = this.entries.get(k)!;
      if (!this.waitsForOwnUpdate(e.qp)) found.push(e);
    }
    if (found.length > 1) found.sort((a, b) => a.seq - b.seq);
    return found.map((e) => e.qp);
  }

  private index(key: string, entry: Entry): void {
    if (this.resources.size === 0) return;
    const qp = entry.qp;
    const pod = qp.podInfo.pod;
    // A group entity's pod and rejectors change with its members, and a pod without rejecting
    // plugins is moved by any event: neither is narrowed.
    const opaque = qp.group !== undefined || (qp.unschedulablePlugins.size === 0 && qp.pendingPlugins.size === 0);
    const events = opaque ? undefined : this.eventsOf(pod);
    for (const ri of this.resources.values()) {
      const indexed = events === undefined ? null : this.indexedRegistrations(qp, events, ri);
      if (indexed === null) {
        ri.always.add(key);
        entry.refs.push({ set: ri.always, owner: null, podKey: '' });
        continue;
      }
      for (const ir of indexed) {
        for (const podKey of ir.index.podKeys(pod)) {
          let set = ir.pods.get(podKey);
          if (!set) {
            set = new Set();
            ir.pods.set(podKey, set);
          }
          set.add(key);
          entry.refs.push({ set, owner: ir.pods, podKey });
        }
      }
    }
  }

  /**
   * The indexed registrations of the pod's rejecting plugins that events of `ri`'s resource can
   * match, or null when one that can match has no index (every such event must ask the pod).
   */
  private indexedRegistrations(qp: QueuedPodInfo, events: ReadonlyMap<string, readonly ClusterEventWithHint[]>, ri: ResourceIndex): IndexedRegistration[] | null {
    const probe: ClusterEvent = { resource: ri.resource, actionType: ActionTypeAll };
    const out: IndexedRegistration[] = [];
    for (const plugins of [qp.unschedulablePlugins, qp.pendingPlugins]) {
      for (const plugin of plugins) {
        for (const reg of events.get(plugin) ?? []) {
          if (!eventMatches(reg.event, probe)) continue;
          const ir = ri.registrations.get(reg);
          if (!ir) return null;
          out.push(ir);
        }
      }
    }
    return out;
  }

  private unindex(key: string, entry: Entry): void {
    for (const ref of entry.refs) {
      ref.set.delete(key);
      // An empty set under a claim no pending pod names any more is dropped.
      if (ref.owner !== null && ref.set.size === 0 && ref.owner.get(ref.podKey) === ref.set) ref.owner.delete(ref.podKey);
    }
    entry.refs = [];
  }
}
