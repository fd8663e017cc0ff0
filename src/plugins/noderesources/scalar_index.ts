// Which scalar resources (extended resources, hugepages) each node of a snapshot's list names in
// its allocatable or its requested amounts, by the node's list position and generation (no
// upstream counterpart: fit.go looks both up on every node). A pod asking for a resource that one
// node in hundreds has (SchedulingWithExtendedResource) met two map lookups on every other node,
// each a few cache misses away (NodeInfo, Resource, Map, its table): a third of a 5,000-node walk.
// With the index, Filter knows from two numbers of the NodeInfo and a set of positions that the
// node names the resource in neither, so both amounts are 0.
import type { NodeInfo } from '../../framework/node_info.js';

const noNames: readonly string[] = [];

/** Past this many resource names (each keeps its set) the index starts over. */
const maxNames = 100_000;

/**
 * A generation identifies one state of one node (a copy made for a snapshot keeps it with the same
 * amounts; every change draws a new one), and a position one NodeInfo of a list (copies outside a
 * list have none): an entry made from (position, generation) holds for any NodeInfo showing both.
 */
export class ScalarIndex {
  /** Per position, the generation its entry was made from (0: none; generations start at 1). */
  private generations = new Float64Array(64);
  /** Per position, the resource names the entry lists. */
  private readonly names: (readonly string[] | undefined)[] = [];
  /**
   * Per resource name, the positions whose entries list it. A name's set stays once made (empty
   * when no entry lists it), so a pod can hold its names' sets for a whole walk; past `maxNames`
   * names the index starts over with a new epoch, and sets held from before must be asked again.
   */
  private byName = new Map<string, Set<number>>();
  private epochValue = 0;

  /** Changes when the index starts over: sets from `positions` before then no longer follow it. */
  get epoch(): number {
    return this.epochValue;
  }

  /**
   * The positions whose entries name `resource`, kept current as entries are made (until the
   * epoch changes); only fresh entries (see `fresh`) tell the truth.
   */
  positions(resource: string): ReadonlySet<number> {
    let set = this.byName.get(resource);
    if (set === undefined) this.byName.set(resource, (set = new Set()));
    return set;
  }

  private startOver(): void {
    this.byName = new Map();
    this.names.length = 0;
    this.generations.fill(0);
    this.epochValue++;
  }

  /** Whether the entry at the node's position was made from its current state. */
  fresh(nodeInfo: NodeInfo): boolean {
    const at = nodeInfo.position;
    return at >= 0 && at < this.generations.length && this.generations[at] === nodeInfo.generation;
  }

  /** Makes the entry at the node's position from its current state; false for a node outside a list. */
  refresh(nodeInfo: NodeInfo): boolean {
    const at = nodeInfo.position;
    if (at < 0) return false;
    // Only here, before the entry is touched: an entry is never left half in an old map.
    if (this.byName.size >= maxNames) this.startOver();
    const old = this.names[at];
    if (old !== undefined) {
      for (const name of old) this.byName.get(name)?.delete(at);
    }
    const names = namesOf(nodeInfo);
    for (const name of names) (this.positions(name) as Set<number>).add(at);
    while (this.names.length <= at) this.names.push(undefined);
    this.names[at] = names;
    if (at >= this.generations.length) {
      const grown = new Float64Array(Math.max(at + 1, this.generations.length * 2));
      grown.set(this.generations);
      this.generations = grown;
    }
    this.generations[at] = nodeInfo.generation;
    return true;
  }
}

/** The scalar resource names in the node's allocatable or requested amounts (any amount). */
function namesOf(nodeInfo: NodeInfo): readonly string[] {
  const allocatable = nodeInfo.allocatable.scalarResources;
  const requested = nodeInfo.requested.scalarResources;
  if ((allocatable === null || allocatable.size === 0) && (requested === null || requested.size === 0)) return noNames;
  const out: string[] = [];
  if (allocatable !== null) for (const name of allocatable.keys()) out.push(name);
  if (requested !== null) for (const name of requested.keys()) if (allocatable?.has(name) !== true) out.push(name);
  return out;
}
