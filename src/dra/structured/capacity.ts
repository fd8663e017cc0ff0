// Consumable capacity: what a request consumes of a device's capacity under its request
// policy, and whether that still fits (structured/internal/incubating/consumable_capacity.go).
// Amounts are exact nano-units (bigint), so sums compare as upstream's Quantity arithmetic.
import type { CapacityRequestPolicy, CapacityRequestPolicyRange, CapacityRequirements, DeviceCapacity } from '../../api/dra_types.js';
import type { QuantityFormat } from '../../api/quantity.js';
import { parseQuantity } from '../../api/quantity.js';
import type { QuantityValue } from '../../api/types.js';
import type { ConsumedCapacity } from './types.js';

const NANO = 1_000_000_000n;
const NANO_PER_MILLI = 1_000_000n;
const INT64_MAX = (1n << 63n) - 1n;

/** An amount with the format upstream would print it in. */
export interface Amount {
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

export class CapacityError extends Error {}

/** Parsed amounts by their text: slices repeat a handful of quantities across many devices. */
const amounts = new Map<QuantityValue, Amount>();
const MAX_CACHED_AMOUNTS = 10_000;

function amountOf(value: QuantityValue): Amount {
  let amount = amounts.get(value);
  if (amount === undefined) {
    const q = parseQuantity(value);
    amount = { nanos: q.nanoValue(), format: q.format };
    if (amounts.size >= MAX_CACHED_AMOUNTS) amounts.clear();
    amounts.set(value, amount);
  }
  return amount;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n === b > 0n ? q + 1n : q;
}

/** Value(): rounded up to a whole number. */
function wholeValue(nanos: bigint): bigint {
  return ceilDiv(nanos, NANO);
}

/** safeMilliValue: the value in milli-units, or undefined when it has finer digits. */
function exactMilli(nanos: bigint): bigint | undefined {
  return nanos % NANO_PER_MILLI === 0n ? nanos / NANO_PER_MILLI : undefined;
}

/** CmpRequestOverCapacity: whether the request fits the device's remaining capacity. */
export function requestFitsCapacity(
  current: ConsumedCapacity,
  request: CapacityRequirements | undefined,
  capacity: Readonly<Record<string, DeviceCapacity>> | undefined,
  allocating: ConsumedCapacity | undefined,
  fractionalCapacityRange: boolean,
): boolean {
  const caps = capacity ?? {};
  if (request?.requests) {
    for (const name of Object.keys(request.requests)) if (!Object.hasOwn(caps, name)) return false;
  }
  // Every amount first (one may throw), then the checks, in the capacities' order.
  const entries = Object.entries(caps);
  const consumed: bigint[] = [];
  for (const [name, cap] of entries) {
    const amount = consumedAmount(request?.requests?.[name], cap, fractionalCapacityRange, name);
    if (amount.nanos < 0n) throw new CapacityError(`capacity "${name}": capacity value is negative`);
    consumed.push(amount.nanos);
  }
  for (let i = 0; i < entries.length; i++) {
    const [name, cap] = entries[i]!;
    const requested = consumed[i]!;
    if (violatesPolicy(requested, cap.requestPolicy, fractionalCapacityRange)) return false;
    const total = requested + (current.get(name) ?? 0n) + (allocating?.get(name) ?? 0n);
    if (total > amountOf(cap.value).nanos) return false;
  }
  return true;
}

/** GetConsumedCapacityFromRequest: what the request consumes of each capacity of the device. */
export function consumedCapacityFromRequest(
  request: CapacityRequirements | undefined,
  capacity: Readonly<Record<string, DeviceCapacity>> | undefined,
  fractionalCapacityRange: boolean,
): Map<string, Amount> {
  const out = new Map<string, Amount>();
  for (const [name, cap] of Object.entries(capacity ?? {})) out.set(name, consumedAmount(request?.requests?.[name], cap, fractionalCapacityRange, name));
  return out;
}

/** calculateConsumedCapacity, with the capacity name in its errors. */
function consumedAmount(requested: QuantityValue | undefined, cap: DeviceCapacity, fractional: boolean, name: string): Amount {
  if (requested === undefined) return amountOf(cap.requestPolicy?.default ?? cap.value);
  const req = amountOf(requested);
  const policy = cap.requestPolicy;
  if (!policy) return req;
  if (policy.validRange?.min !== undefined) {
    try {
      return roundUpRange(req, policy.validRange, fractional);
    } catch (err) {
      throw new CapacityError(`capacity "${name}": ${(err as Error).message}`);
    }
  }
  if (policy.validValues) {
    for (const v of policy.validValues) {
      const valid = amountOf(v);
      if (req.nanos <= valid.nanos) return valid;
    }
  }
  return req;
}

const NOT_REPRESENTABLE = "capacity request cannot be represented in the device's range arithmetic";

function roundUpRange(req: Amount, range: CapacityRequestPolicyRange, fractional: boolean): Amount {
  const min = amountOf(range.min!);
  if (req.nanos < min.nanos) return min;
  if (range.step === undefined) return req;
  const step = amountOf(range.step);
  // Printed only in errors: made when one is thrown.
  const text = (): string => formatAmount(req);
  if (useMilli(range, fractional)) {
    const reqMilli = exactMilli(req.nanos);
    if (reqMilli === undefined || reqMilli > INT64_MAX) throw new CapacityError(`${NOT_REPRESENTABLE}: request ${text()} is not a representable milli value`);
    const stepMilli = ceilDiv(step.nanos, NANO_PER_MILLI);
    const minMilli = ceilDiv(min.nanos, NANO_PER_MILLI);
    const n = ceilDiv(reqMilli - minMilli, stepMilli);
    if (n > (INT64_MAX - minMilli) / stepMilli) throw new CapacityError(`${NOT_REPRESENTABLE}: rounding request ${text()} up to the next step passes the milli-value range`);
    return { nanos: (minMilli + stepMilli * n) * NANO_PER_MILLI, format: step.format };
  }
  if (req.nanos > INT64_MAX * NANO) throw new CapacityError(`${NOT_REPRESENTABLE}: request ${text()} exceeds MaxInt64`);
  const reqInt = wholeValue(req.nanos);
  const stepInt = wholeValue(step.nanos);
  const minInt = wholeValue(min.nanos);
  const n = ceilDiv(reqInt - minInt, stepInt);
  if (minInt >= 0n && n > (INT64_MAX - minInt) / stepInt) throw new CapacityError(`${NOT_REPRESENTABLE}: rounding request ${text()} up to the next step passes MaxInt64`);
  return { nanos: (minInt + stepInt * n) * NANO, format: step.format };
}

function useMilli(range: CapacityRequestPolicyRange, fractional: boolean): boolean {
  if (!fractional) return false;
  for (const q of [range.min, range.max, range.step]) {
    if (q === undefined) continue;
    const milli = exactMilli(amountOf(q).nanos);
    if (milli === undefined) return false;
    if (q === range.step && milli < 1n) return false;
  }
  return true;
}

function violatesPolicy(requested: bigint, policy: CapacityRequestPolicy | undefined, fractional: boolean): boolean {
  if (!policy) return false;
  if (policy.default !== undefined && amountOf(policy.default).nanos === requested) return false;
  if (policy.validRange) {
    const range = policy.validRange;
    if (range.max !== undefined && requested > amountOf(range.max).nanos) return true;
    if (range.step !== undefined) {
      const minNanos = range.min !== undefined ? amountOf(range.min).nanos : 0n;
      if (useMilli(range, fractional)) {
        const req = exactMilli(requested);
        if (req === undefined) return true;
        return (req - ceilDiv(minNanos, NANO_PER_MILLI)) % ceilDiv(amountOf(range.step).nanos, NANO_PER_MILLI) !== 0n;
      }
      return (wholeValue(requested) - wholeValue(minNanos)) % wholeValue(amountOf(range.step).nanos) !== 0n;
    }
    return false;
  }
  if ((policy.validValues?.length ?? 0) > 0) {
    for (const v of policy.validValues!) if (amountOf(v).nanos === requested) return false;
    return true;
  }
  return false;
}

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL_SUFFIXES: ReadonlyArray<[bigint, string]> = [
  [10n ** 27n, 'E'], [10n ** 24n, 'P'], [10n ** 21n, 'T'], [10n ** 18n, 'G'], [10n ** 15n, 'M'], [10n ** 12n, 'k'], [NANO, ''], [NANO_PER_MILLI, 'm'], [1000n, 'u'], [1n, 'n'],
];

/** The canonical text of an amount, as Quantity.String() prints it. */
export function formatAmount(amount: Amount): string {
  const { nanos, format } = amount;
  if (nanos === 0n) return '0';
  const sign = nanos < 0n ? '-' : '';
  const abs = nanos < 0n ? -nanos : nanos;
  if (format === 'BinarySI' && abs % NANO === 0n && abs >= 1024n * NANO) {
    let v = abs / NANO;
    let i = 0;
    while (i < BINARY_SUFFIXES.length - 1 && v % 1024n === 0n) {
      v /= 1024n;
      i++;
    }
    return `${sign}${v}${BINARY_SUFFIXES[i]}`;
  }
  for (const [unit, suffix] of DECIMAL_SUFFIXES) {
    if (abs % unit === 0n) return `${sign}${abs / unit}${suffix}`;
  }
  return `${sign}${abs}n`;
}
