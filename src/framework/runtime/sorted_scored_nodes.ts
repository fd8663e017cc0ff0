// The ranking a scheduling cycle leaves for opportunistic batching (framework/sorted_nodes.go): a
// max-heap on the total score, with Go's container/heap algorithms, so the nodes come out among
// equal totals in the order upstream's heap gives them (or by name, for exact comparisons).

/** One scored node: its Score answers before normalizing, per plugin, and its weighted total. */
export interface ScoredCandidate {
  readonly name: string;
  /** The Score plugins whose answers `rawValues` holds, in the same order. */
  readonly rawNames: readonly string[];
  readonly rawValues: Float64Array;
  totalScore: number;
}

export class SortedScoredNodes {
  private readonly items: ScoredCandidate[];

  /** Heapifies `list` (taken over, not copied); `byName` orders equal totals by name. */
  constructor(list: ScoredCandidate[], readonly byName: boolean) {
    this.items = list;
    const n = list.length;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.down(i, n);
  }

  get length(): number {
    return this.items.length;
  }

  /** Takes the best node out. */
  pop(): ScoredCandidate {
    const n = this.items.length - 1;
    this.swap(0, n);
    this.down(0, n);
    return this.items.pop()!;
  }

  /** Takes the named node out (heap.Remove); false when it is not there. */
  remove(name: string): boolean {
    const i = this.items.findIndex((c) => c.name === name);
    if (i < 0) return false;
    const n = this.items.length - 1;
    if (n !== i) {
      this.swap(i, n);
      if (!this.down(i, n)) this.up(i);
    }
    this.items.pop();
    return true;
  }

  /** The nodes in heap order (not sorted); the entries are shared: do not change them. */
  unorderedList(): readonly ScoredCandidate[] {
    return this.items;
  }

  private less(i: number, j: number): boolean {
    const a = this.items[i]!;
    const b = this.items[j]!;
    if (a.totalScore !== b.totalScore) return a.totalScore > b.totalScore;
    // Upstream's Randomizer is 0 for every node when no extender scores (batching's case).
    return this.byName && a.name < b.name;
  }

  private swap(i: number, j: number): void {
    const t = this.items[i]!;
    this.items[i] = this.items[j]!;
    this.items[j] = t;
  }

  private down(i0: number, n: number): boolean {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n) break;
      let j = j1;
      const j2 = j1 + 1;
      if (j2 < n && this.less(j2, j1)) j = j2;
      if (!this.less(j, i)) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }

  private up(j0: number): void {
    let j = j0;
    for (;;) {
      const i = (j - 1) >> 1;
      if (j === 0 || !this.less(j, i)) break;
      this.swap(i, j);
      j = i;
    }
  }
}
