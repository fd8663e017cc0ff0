// Claim constraints across the devices of several requests: matchAttribute (all equal) and
// distinctAttribute (all different) (structured/internal/incubating/allocator_incubating.go and
// constraint.go). Constraints are monotonic: once a device is refused, adding more never helps.
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

abstract class RequestScopedConstraint implements Constraint {
  private readonly requestNames: ReadonlySet<string>;

  constructor(
    constraint: DeviceConstraint,
    protected readonly attributeName: string,
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

/** matchAttribute: every device carries the first device's value. */
export class MatchAttributeConstraint extends RequestScopedConstraint {
  private value: string | undefined;
  private numDevices = 0;

  protected accept(attr: DeviceAttribute): boolean {
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

  protected drop(): void {
    this.numDevices--;
  }
}

/** distinctAttribute: no two devices share a value. */
export class DistinctAttributeConstraint extends RequestScopedConstraint {
  private readonly values: (string | undefined)[] = [];

  protected accept(attr: DeviceAttribute): boolean {
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
    this.values.pop();
  }
}
