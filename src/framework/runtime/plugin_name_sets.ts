// The sets of plugin names an extension point's loop collects for the cycle state (the plugins
// whose PreFilter, PreScore or pre-flight returned Skip; those that may bind in parallel).

const noNames: ReadonlySet<string> = new Set<string>();

/**
 * Collects members of one extension point's plugin list and hands out the set of their names,
 * one shared set per combination: a cycle that collects the same plugins as an earlier one gets
 * that set again instead of a new one (most pods of a workload skip the same plugins). Sets are
 * never changed once handed out (CycleState replaces them as a whole). A combination is a bit
 * mask over the list; past its 31st plugin a list makes a new set per cycle.
 */
export class PluginNameSets {
  private readonly byMask = new Map<number, ReadonlySet<string>>();
  private mask = 0;
  private beyondMask: Set<string> | null = null;

  constructor(private readonly names: readonly string[]) {}

  /** Starts a new collection (the loops that use this are synchronous: one collection at a time). */
  begin(): void {
    this.mask = 0;
    this.beyondMask = null;
  }

  /** Adds the plugin at `index` of the list. */
  add(index: number): void {
    if (index < 31) this.mask |= 1 << index;
    else (this.beyondMask ??= new Set()).add(this.names[index]!);
  }

  /** The names added since `begin`. */
  end(): ReadonlySet<string> {
    const mask = this.mask;
    if (this.beyondMask !== null) {
      const all = this.beyondMask;
      for (let i = 0; i < 31; i++) if ((mask & (1 << i)) !== 0) all.add(this.names[i]!);
      return all;
    }
    if (mask === 0) return noNames;
    let set = this.byMask.get(mask);
    if (set === undefined) {
      const made = new Set<string>();
      for (let i = 0; i < this.names.length && i < 31; i++) if ((mask & (1 << i)) !== 0) made.add(this.names[i]!);
      set = made;
      this.byMask.set(mask, set);
    }
    return set;
  }
}
