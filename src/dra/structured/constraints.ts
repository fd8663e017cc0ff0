// Claim constraints across the devices of several requests: matchAttribute (all equal) and
// distinctAttribute (all different) (structured/internal/incubating/allocator_incubating.go and
// constraint.go; with DRAListTypeAttributes, internal/experimental's set semantics: match keeps a
// non-empty intersection, distinct keeps the devices' values pairwise disjoint). Constraints are
// monotonic: once a device is refused, adding more never helps.
import type { Device, DeviceAttribute, DeviceConstraint } from '../../api/dra_types.js';

export interface Constraint {
  /** Checks the device and, when it fits, counts it in. */
  add(requestName: string, subRequestName: string, device: Device, driver: string): boolean;
  /** Undoes the matching successful add. */
  remove(requestName: string, subRequestName: string): void;
}

/** The attribute `domain/name`, also found under its bare name when the domain is the driver's. */
function lookupAttribute(device: Device, driver: string, attributeName: string): DeviceAttribute | undefined {
  const attrs = device.attributes;
  if (!attrs) return undefined;
  if (Object.hasOwn(attrs, attributeName)) return attrs[attributeName];
  const slash = attributeName.indexOf('/');
  if (slash < 0 || attributeName.slice(0, slash) !== driver) return undefined;
  const id = attributeName.slice(slash + 1);
  return Object.hasOwn(attrs, id) ? attrs[id] : undefined;
}

/** The comparable scalar of an attribute with its kind, or undefined for list or unknown kinds. */
function scalarKey(attr: DeviceAttribute): string | undefined {
  if (attr.string !== undefined) return `s:${attr.string}`;
  if (attr.int !== undefined) return `i:${attr.int}`;
  if (attr.bool !== undefined) return `b:${attr.bool}`;
  if (attr.version !== undefined) return `v:${attr.version}`;
  return undefined;
}

/**
 * The attribute's values as a set of kind-tagged keys (upstream's attributeAsSet): a non-empty
 * list, else the scalar; undefined for an empty or unknown value. Tagging by kind makes values of
 * different kinds never intersect, as upstream's type-mismatch case.
 */
function attributeSet(attr: DeviceAttribute): ReadonlySet<string> | undefined {
  let set = attributeSets.get(attr);
  if (set === undefined) {
    set = buildAttributeSet(attr) ?? null;
    attributeSets.set(attr, set);
  }
  return set ?? undefined;
}

/** Slices are not mutated in place (an update replaces the object), so a device's sets are kept. */
const attributeSets = new WeakMap<DeviceAttribute, ReadonlySet<string> | null>();

function buildAttributeSet(attr: DeviceAttribute): ReadonlySet<string> | undefined {
  if (attr.ints !== undefined && attr.ints.length > 0) return new Set(attr.ints.map((v) => `i:${v}`));
  if (attr.bools !== undefined && attr.bools.length > 0) return new Set(attr.bools.map((v) => `b:${v}`));
  if (attr.strings !== undefined && attr.strings.length > 0) return new Set(attr.strings.map((v) => `s:${v}`));
  if (attr.versions !== undefined && attr.versions.length > 0) return new Set(attr.versions.map((v) => `v:${v}`));
  const key = scalarKey(attr);
  return key === undefined ? undefined : new Set([key]);
}

/**
 * The common values of a and b; empty when none. Most candidates share nothing or contain the
 * whole current intersection, so those cases are answered without building a new set.
 */
function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  let common = 0;
  for (const v of small) if (large.has(v)) common++;
  if (common === 0) return EMPTY;
  if (common === small.size) return small;
  const out = new Set<string>();
  for (const v of small) if (large.has(v)) out.add(v);
  return out;
}

const EMPTY: ReadonlySet<string> = new Set();

function disjoint(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const v of small) if (large.has(v)) return false;
  return true;
}

abstract class RequestScopedConstraint implements Constraint {
  private readonly requestNames: ReadonlySet<string>;

  constructor(
    constraint: DeviceConstraint,
    protected readonly attributeName: string,
    /** DRAListTypeAttributes: compare values as sets. */
    protected readonly lists = false,
  ) {
    this.requestNames = new Set(constraint.requests ?? []);
  }

  /** Whether a device for this request is subject to the constraint (all are when none named). */
  protected applies(requestName: string, subRequestName: string): boolean {
    if (this.requestNames.size === 0) return true;
    if (this.requestNames.has(requestName)) return true;
    return subRequestName !== '' && this.requestNames.has(`${requestName}/${subRequestName}`);
  }

  add(requestName: string, subRequestName: string, device: Device, driver: string): boolean {
    if (!this.applies(requestName, subRequestName)) return true;
    const attr = lookupAttribute(device, driver, this.attributeName);
    if (attr === undefined) return false;
    return this.accept(attr);
  }

  remove(requestName: string, subRequestName: string): void {
    if (this.applies(requestName, subRequestName)) this.drop();
  }

  protected abstract accept(attr: DeviceAttribute): boolean;
  protected abstract drop(): void;
}

/** matchAttribute: every device carries the first device's value (with lists: a value all share). */
export class MatchAttributeConstraint extends RequestScopedConstraint {
  private value: string | undefined;
  private numDevices = 0;
  /** With lists: the values all devices so far share, one entry per device, popped on remove. */
  private readonly intersections: ReadonlySet<string>[] = [];

  protected accept(attr: DeviceAttribute): boolean {
    if (this.lists) return this.acceptSet(attr);
    const key = scalarKey(attr);
    if (this.numDevices === 0) {
      // The first device is always taken, even with a value kind nothing else can match.
      this.value = key;
      this.numDevices = 1;
      return true;
    }
    if (key === undefined || key !== this.value) return false;
    this.numDevices++;
    return true;
  }

  private acceptSet(attr: DeviceAttribute): boolean {
    const set = attributeSet(attr);
    if (set === undefined) return false;
    if (this.numDevices > 0) {
      const narrowed = intersect(this.intersections[this.numDevices - 1]!, set);
      if (narrowed.size === 0) return false;
      this.intersections.push(narrowed);
    } else {
      this.intersections.push(set);
    }
    this.numDevices++;
    return true;
  }

  protected drop(): void {
    this.numDevices--;
    if (this.lists) this.intersections.length = this.numDevices;
  }
}

/** distinctAttribute: no two devices share a value (with lists: their value sets are disjoint). */
export class DistinctAttributeConstraint extends RequestScopedConstraint {
  private readonly values: (string | undefined)[] = [];
  private readonly sets: ReadonlySet<string>[] = [];

  protected accept(attr: DeviceAttribute): boolean {
    if (this.lists) {
      const set = attributeSet(attr);
      if (set === undefined) return false;
      for (const other of this.sets) if (!disjoint(set, other)) return false;
      this.sets.push(set);
      return true;
    }
    const key = scalarKey(attr);
    // An unknown kind fails as soon as there is anything to compare with.
    if (key === undefined) {
      if (this.values.length > 0) return false;
    } else if (this.values.includes(key)) {
      return false;
    }
    this.values.push(key);
    return true;
  }

  protected drop(): void {
    if (this.lists) this.sets.pop();
    else this.values.pop();
  }
}
