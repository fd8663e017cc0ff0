// resource.Quantity as apimachinery parses and reads it (k8s.io/apimachinery/pkg/api/resource:
// quantity.go ParseQuantity, suffix.go, amount.go AsScaledInt64, math.go, scale_int.go).
//
// Upstream keeps a parsed quantity in one of two forms and ScaledValue reads each its own way:
// - the int64 form (mantissa × 10^scale, scale ≥ -9, at most 18 digits): rounds away from zero,
//   and on int64 overflow yields a wrapped product or 0, as math.go's helpers do;
// - the decimal form (anything else: more digits, a finer scale, Pi/Ei, fractional binary), rounded
//   up to whole nano-units when parsed (BinarySI capped at 2^63-1), and read by scale_int.go.
// We keep the same two forms and the same reading rules, exactly, with BigInt where a value leaves
// the safe-integer range. The common inputs ("100m", "2", "1Gi", "0.5") never allocate a BigInt.
import type { QuantityValue } from './types.js';

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** Which of upstream's three parse errors (ErrFormatWrong, ErrNumeric, ErrSuffix) was hit. */
export type QuantityErrorReason = 'FormatWrong' | 'Numeric' | 'Suffix';

const reasonText: Record<QuantityErrorReason, string> = {
  FormatWrong: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  Numeric: 'unable to parse numeric part of quantity',
  Suffix: "unable to parse quantity's suffix",
};

export class QuantityError extends Error {
  override name = 'QuantityError';

  constructor(
    message: string,
    /** The rejected input, as given. */
    readonly input?: string,
    readonly reason?: QuantityErrorReason,
  ) {
    super(message);
  }

  static of(input: string, reason: QuantityErrorReason): QuantityError {
    return new QuantityError(`invalid quantity ${JSON.stringify(input)}: ${reasonText[reason]}`, input, reason);
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
/** BinarySI values are capped at 2^63-1, here in nano-units. */
const BINARY_CAP_NANOS = INT64_MAX * 1_000_000_000n;
const BINARY_FACTOR = [1, 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40, 2 ** 50, 2 ** 60];
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/** Scale exponents beyond this are not expanded into BigInt digits (upstream would try and stall). */
const MAX_MATERIALIZED_EXPONENT = 100_000;

function pow10n(k: number): bigint {
  return 10n ** BigInt(k);
}

function wrap64(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}

// ---- The scanner (parseQuantityString) and suffix interpretation, writing into module scratch
// ---- fields so that the hot path allocates nothing.

let sNeg = false;
/** Numerator digits after leading zeros are stripped: [sNumStart, sNumEnd); empty means "0". */
let sNumStart = 0;
let sNumEnd = 0;
/** Denominator digits: [sDenStart, sDenEnd). */
let sDenStart = 0;
let sDenEnd = 0;
/** False when the number part holds no digit at all (".", "+", "Mi"): inf.Dec would refuse it. */
let sHasDigits = false;
let sBase = 10;
let sExp = 0;
let sFormat: QuantityFormat = 'DecimalSI';

const enum Ch { Plus = 43, Minus = 45, Dot = 46, Zero = 48, Nine = 57 }

function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}

/** The characters parseQuantityString accepts as part of a suffix: "eEinumkKMGTP". */
function isSuffixChar(c: number): boolean {
  switch (c) {
    case 101: case 69: case 105: case 110: case 117: case 109: // e E i n u m
    case 107: case 75: case 77: case 71: case 84: case 80: // k K M G T P
      return true;
    default:
      return false;
  }
}

/** Splits `str` into sign, numerator, denominator and suffix; returns the suffix start or throws. */
function scan(str: string): number {
  const end = str.length;
  let pos = 0;
  sNeg = false;
  const c0 = str.charCodeAt(0);
  if (c0 === Ch.Minus) {
    sNeg = true;
    pos++;
  } else if (c0 === Ch.Plus) {
    pos++;
  }
  const signEnd = pos;
  while (pos < end && str.charCodeAt(pos) === Ch.Zero) pos++;
  sDenStart = sDenEnd = 0;
  if (pos >= end) {
    // Only a sign and zeros (or nothing): the value is "0".
    sNumStart = sNumEnd = pos;
    sHasDigits = true;
    return end;
  }
  const zeros = pos > signEnd;
  sNumStart = pos;
  while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
  sNumEnd = pos;
  if (pos < end && str.charCodeAt(pos) === Ch.Dot) {
    pos++;
    sDenStart = pos;
    while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
    sDenEnd = pos;
  }
  sHasDigits = zeros || sNumEnd > sNumStart || sDenEnd > sDenStart;
  const suffixStart = pos;
  while (pos < end && isSuffixChar(str.charCodeAt(pos))) pos++;
  if (pos < end) {
    const c = str.charCodeAt(pos);
    if (c === Ch.Minus || c === Ch.Plus) pos++;
  }
  while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
  if (pos < end) throw QuantityError.of(str, 'FormatWrong');
  return suffixStart;
}

/** suffixer.interpret: sets sBase, sExp and sFormat, or throws ErrSuffix. */
function interpret(str: string, start: number): void {
  const len = str.length - start;
  sBase = 10;
  sFormat = 'DecimalSI';
  if (len === 0) {
    sExp = 0;
    return;
  }
  const c = str.charCodeAt(start);
  if (len === 1) {
    switch (c) {
      case 110: sExp = -9; return; // n
      case 117: sExp = -6; return; // u
      case 109: sExp = -3; return; // m
      case 107: sExp = 3; return; // k
      case 77: sExp = 6; return; // M
      case 71: sExp = 9; return; // G
      case 84: sExp = 12; return; // T
      case 80: sExp = 15; return; // P
      case 69: sExp = 18; return; // E
    }
    throw QuantityError.of(str, 'Suffix');
  }
  if (len === 2 && str.charCodeAt(start + 1) === 105 /* i */) {
    let e = -1;
    switch (c) {
      case 75: e = 10; break; // Ki
      case 77: e = 20; break; // Mi
      case 71: e = 30; break; // Gi
      case 84: e = 40; break; // Ti
      case 80: e = 50; break; // Pi
      case 69: e = 60; break; // Ei
    }
    if (e > 0) {
      sBase = 2;
      sExp = e;
      sFormat = 'BinarySI';
      return;
    }
  }
  if (c === 101 || c === 69) {
    // strconv.ParseInt(s[1:], 10, 64), then narrowed to int32 as upstream does.
    const short = shortExponent(str, start + 1);
    if (short !== undefined) {
      sExp = short;
      sFormat = 'DecimalExponent';
      return;
    }
    const digits = str.slice(start + 1);
    if (!/^[+-]?[0-9]+$/.test(digits)) throw QuantityError.of(str, 'Suffix');
    const n = BigInt(digits);
    if (n > INT64_MAX || n < INT64_MIN) throw QuantityError.of(str, 'Suffix');
    sExp = Number(BigInt.asIntN(32, n));
    sFormat = 'DecimalExponent';
    return;
  }
  throw QuantityError.of(str, 'Suffix');
}

/** A signed exponent of 1 to 9 digits (always within int32), or undefined for anything else. */
function shortExponent(str: string, start: number): number | undefined {
  const end = str.length;
  let i = start;
  const c = str.charCodeAt(i);
  const neg = c === Ch.Minus;
  if (neg || c === Ch.Plus) i++;
  if (i >= end || end - i > 9) return undefined;
  let v = 0;
  for (; i < end; i++) {
    const d = str.charCodeAt(i);
    if (!isDigit(d)) return undefined;
    v = v * 10 + (d - Ch.Zero);
  }
  return neg ? -v : v;
}

// ---- The parsed amount: value = mantissa × 10^exponent, in upstream's int64 or decimal form.

let rInt64Form = true;
/**
 * The mantissa when it is a safe integer (rBig === null). An object field initialised with a
 * fraction keeps a double representation, so storing 2^30 does not allocate (a module-level
 * `let` would box every non-small integer).
 */
const scratch = { num: 0.5 };
let rBig: bigint | null = null;
let rExp = 0;
let rFormat: QuantityFormat = 'DecimalSI';

function digitsAsNumber(str: string, start: number, end: number, acc: number): number {
  for (let i = start; i < end; i++) acc = acc * 10 + (str.charCodeAt(i) - Ch.Zero);
  return acc;
}

/** ParseQuantity: fills the r* fields or throws QuantityError. */
function decode(str: string): void {
  if (str.length === 0) throw QuantityError.of(str, 'FormatWrong');
  const suffixStart = scan(str);
  interpret(str, suffixStart);
  rFormat = sFormat;
  const numLen = sNumEnd > sNumStart ? sNumEnd - sNumStart : 1;
  const denLen = sDenEnd - sDenStart;
  let precision: number;
  let scale = 0;
  if (sBase === 10) {
    scale = sExp;
    precision = 18 - (numLen + denLen);
  } else {
    precision = denLen === 0 ? 15 - numLen - Math.trunc((sExp * 3) / 10) - 1 : -1;
  }
  if (precision >= 0) {
    scale = (scale - denLen) | 0;
    if (scale >= -9) {
      decodeInt64Form(str, numLen + denLen, scale);
      return;
    }
  }
  decodeDecimalForm(str, denLen);
}

function decodeInt64Form(str: string, digitCount: number, scale: number): void {
  rInt64Form = true;
  rExp = scale;
  if (digitCount <= 15) {
    let v = digitsAsNumber(str, sNumStart, sNumEnd, 0);
    v = digitsAsNumber(str, sDenStart, sDenEnd, v);
    if (sBase === 2) v *= BINARY_FACTOR[sExp / 10]!; // the precision rule keeps this below 2^47
    scratch.num = sNeg && v !== 0 ? -v : v;
    rBig = null;
    return;
  }
  // 16 to 18 digits: exact in int64, not in a double.
  let v = BigInt(str.slice(sNumStart, sNumEnd) + str.slice(sDenStart, sDenEnd));
  if (sNeg) v = -v;
  setBig(v);
}

function setBig(v: bigint): void {
  if (v >= -MAX_SAFE_BIG && v <= MAX_SAFE_BIG) {
    scratch.num = Number(v);
    rBig = null;
  } else {
    rBig = v;
  }
}

/** The inf.Dec path: rounds the magnitude up to whole nano-units and caps BinarySI at 2^63-1. */
function decodeDecimalForm(str: string, denLen: number): void {
  if (!sHasDigits) throw QuantityError.of(str, 'Numeric');
  rInt64Form = false;
  if (sBase === 2 && denLen <= 9 && sNumEnd - sNumStart + denLen <= 15) {
    // Fractional binary ("1.5Gi"): d × 2^exp is a safe integer, so the value is exactly
    // ±(d × 2^exp) × 10^-denLen, far below the 2^63-1 cap.
    let d = digitsAsNumber(str, sNumStart, sNumEnd, 0);
    d = digitsAsNumber(str, sDenStart, sDenEnd, d) * BINARY_FACTOR[sExp / 10]!;
    if (d <= MAX_SAFE) {
      if (d !== 0 && d * POW10[9 - denLen]! < 1e9) rFormat = 'DecimalSI';
      scratch.num = sNeg && d !== 0 ? -d : d;
      rBig = null;
      rExp = d === 0 ? 0 : -denLen;
      return;
    }
  }
  const digits = str.slice(sNumStart, sNumEnd) + str.slice(sDenStart, sDenEnd);
  const d = digits.length === 0 ? 0n : BigInt(digits);
  if (d === 0n) {
    scratch.num = 0;
    rBig = null;
    rExp = 0;
    return;
  }
  // nano = ceil(d × base^exp × 10^(9 - denLen)), kept as coef × 10^pow with pow ≥ 0.
  let coef: bigint;
  let pow: number;
  if (sBase === 10) {
    // inf.Dec scale arithmetic is int32 and wraps.
    const infScale = (denLen + ((-sExp) | 0)) | 0;
    const k = 9 - infScale;
    if (k >= 0) {
      coef = d;
      pow = k;
    } else if (-k >= digits.length) {
      coef = 1n;
      pow = 0;
    } else {
      coef = ceilDiv(d, pow10n(-k));
      pow = 0;
    }
  } else {
    const scaled = d << BigInt(sExp);
    if (denLen <= 9) {
      coef = scaled;
      pow = 9 - denLen;
    } else {
      coef = ceilDiv(scaled, pow10n(denLen - 9));
      pow = 0;
    }
    const nano = coef * pow10n(pow);
    if (nano > BINARY_CAP_NANOS) {
      coef = INT64_MAX;
      pow = 9;
    } else if (nano < 1_000_000_000n) {
      rFormat = 'DecimalSI'; // 0 < |value| < 1: upstream drops the binary format
    }
  }
  rExp = pow - 9;
  const signed = sNeg ? -coef : coef;
  setBig(signed);
}

/** Ceiling of a / b for a ≥ 0, b > 0. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b === a ? q : q + 1n;
}

// ---- Reading a value at a scale (Quantity.ScaledValue), exactly as upstream.

/** int64Amount.AsScaledInt64(t) for mantissa u (an int64) and scale e. */
function int64FormScaled(u: bigint, e: number, t: number): bigint {
  if (u === 0n) return 0n;
  if (e < t) {
    // negativeScaleInt64: divide, rounding away from zero.
    const k = t - e;
    if (k >= 20) return u > 0n ? 1n : -1n;
    const p = pow10n(k);
    const q = u / p;
    if (q * p === u) return q;
    return u > 0n ? q + 1n : q - 1n;
  }
  const s = e - t;
  if (s === 0) return u;
  // positiveScaleInt64: the ×10, ×100, ×1000, ×10^6 and ×10^9 shortcuts return the wrapped
  // product on overflow; the loop used for any other scale returns 0.
  if (s === 1 || s === 2 || s === 3 || s === 6 || s === 9) {
    if (u === INT64_MIN) return 0n;
    return wrap64(u * pow10n(s));
  }
  if (s >= 20) return 0n;
  const p = u * pow10n(s);
  return p > INT64_MAX || p < INT64_MIN ? 0n : p;
}

/** scale_int.go scaledValue for the decimal form: nano-units coef × 10^pow, at scale t. */
function decimalFormScaled(coef: bigint, pow: number, t: number): bigint {
  if (coef === 0n) return 0n;
  const dif = 9 + t;
  if (dif <= 0) {
    // unscaled.Int64(): the low 64 bits (zero once 10^pow is a multiple of 2^64).
    const unscaled = pow >= 64 ? 0n : wrap64(coef * pow10n(pow));
    if (dif === 0) return unscaled;
    // unscaled.Int64() * int64(math.Pow10(-dif)); an out-of-range float converts to MinInt64 on amd64.
    const factor = -dif <= 18 ? pow10n(-dif) : INT64_MIN;
    return wrap64(unscaled * factor);
  }
  if (pow >= dif) {
    // Exact division: the quotient's low 64 bits (10^64 is a multiple of 2^64).
    const k = pow - dif;
    return k >= 64 ? 0n : wrap64(coef * pow10n(k));
  }
  const n = coef * pow10n(pow);
  const divisor = pow10n(dif);
  const abs = n < 0n ? -n : n;
  if (abs < INT64_MAX && dif < 19) {
    // Truncating division, then +1 on any remainder (even for negative values, as upstream).
    const q = n / divisor;
    return q * divisor === n ? q : q + 1n;
  }
  // big.Int DivMod is Euclidean: floor for a positive divisor, then +1 on any remainder.
  let q = n / divisor;
  if (n < 0n && q * divisor !== n) q -= 1n;
  return wrap64(q * divisor === n ? q : q + 1n);
}

function materialize(coef: bigint, pow: number): bigint {
  if (pow > MAX_MATERIALIZED_EXPONENT) throw new QuantityError(`quantity with exponent 10^${pow - 9} is too large to evaluate exactly`);
  return coef * pow10n(pow);
}

/** Reads the r* fields at scale t (0 = Value, -3 = MilliValue) as a number. */
function readScaled(t: number): number {
  const u = scratch.num;
  // Safe-integer shortcuts; the decimal form only for positive values, where both of its
  // division paths round up.
  if (rBig === null && (rInt64Form || u > 0)) {
    if (u === 0) return 0;
    if (rExp < t) {
      const p = POW10[t - rExp]!; // rExp ≥ -9, so at most 10^9 for t ≤ 0
      const r = u % p;
      const q = (u - r) / p;
      return r === 0 ? q : u > 0 ? q + 1 : q - 1;
    }
    const s = rExp - t;
    if (s <= 15) {
      const v = u * POW10[s]!;
      if (v <= MAX_SAFE && v >= -MAX_SAFE) return v;
    }
  }
  return Number(readScaledBig(t));
}

function readScaledBig(t: number): bigint {
  const m = rBig ?? BigInt(scratch.num);
  return rInt64Form ? int64FormScaled(m, rExp, t) : decimalFormScaled(m, rExp + 9, t);
}

/** The string upstream's JSON decoding would see for an object value. */
function textOf(input: QuantityValue | null | undefined): string {
  if (typeof input === 'string') return input;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw QuantityError.of(String(input), 'FormatWrong');
    return String(input);
  }
  // JSON null decodes to the zero quantity.
  if (input === null || input === undefined) return '0';
  throw QuantityError.of(String(input), 'FormatWrong');
}

function decodeValue(input: QuantityValue | null | undefined): void {
  if (typeof input === 'number' && Number.isSafeInteger(input)) {
    // A JSON integer parses as the same digits: the int64 form at scale 0.
    rInt64Form = true;
    scratch.num = input === 0 ? 0 : input;
    rBig = null;
    rExp = 0;
    rFormat = 'DecimalSI';
    return;
  }
  decode(textOf(input));
}

// ---- Public API

/** A parsed quantity: its exact value (mantissa × 10^exponent) and upstream's reading rules. */
export class Quantity {
  constructor(
    readonly format: QuantityFormat,
    /** The value is mantissa × 10^exponent, exactly. */
    readonly mantissa: bigint,
    readonly exponent: number,
    /** True for upstream's int64 form, false for its inf.Dec form (they round differently). */
    readonly int64Form: boolean,
  ) {}

  get sign(): -1 | 0 | 1 {
    return this.mantissa > 0n ? 1 : this.mantissa < 0n ? -1 : 0;
  }

  /** ScaledValue(scale): ceil(q / 10^scale) with upstream's int64 rounding and overflow rules. */
  scaledValue(scale: number): bigint {
    return this.int64Form ? int64FormScaled(this.mantissa, this.exponent, scale) : decimalFormScaled(this.mantissa, this.exponent + 9, scale);
  }

  /** Value(): rounded up to an integer (int64, as a number: exact below 2^53). */
  value(): number {
    return Number(this.scaledValue(0));
  }

  /** MilliValue(): thousandths, rounded up. */
  milliValue(): number {
    return Number(this.scaledValue(-3));
  }

  /** The exact value in nano-units (every parsed quantity is a whole number of them). */
  nanoValue(): bigint {
    const k = this.exponent + 9;
    if (k >= 0) return materialize(this.mantissa, k);
    return this.mantissa / pow10n(-k);
  }
}

/** resource.ParseQuantity for a string; a number is read as its JSON text; null is zero. */
export function parseQuantity(input: QuantityValue | null | undefined): Quantity {
  decodeValue(input);
  return new Quantity(rFormat, rBig ?? BigInt(scratch.num), rExp, rInt64Form);
}

/**
 * Readings of quantity strings already parsed, by reading: a cluster's nodes and pods repeat a
 * handful of values ("4", "32Gi", "100m"), and a parse costs about a microsecond on code the JIT
 * has not compiled yet (four per node of `run`'s first node list). Only successful readings are
 * kept, so a bad string is refused every time; emptied when full, so unique values cannot grow it.
 */
class Readings {
  private readonly byText = new Map<string, number>();

  get(text: string): number | undefined {
    return this.byText.get(text);
  }

  set(text: string, value: number): number {
    if (this.byText.size >= maxReadings) this.byText.clear();
    this.byText.set(text, value);
    return value;
  }
}

const maxReadings = 4096;
const values = new Readings();
const milliValues = new Readings();
/** exactScaledValue's readings at scales 0 and -3; NaN stands for undefined (not a whole number). */
const exactValues = new Readings();
const exactMilliValues = new Readings();

/** Value() of a quantity: rounded up to an integer. Throws QuantityError on invalid input. */
export function quantityValue(input: QuantityValue | null | undefined): number {
  if (typeof input === 'string') return values.get(input) ?? values.set(input, readString(input, 0));
  decodeValue(input);
  return readScaled(0);
}

/** MilliValue() of a quantity: thousandths, rounded up. Throws QuantityError on invalid input. */
export function quantityMilliValue(input: QuantityValue | null | undefined): number {
  if (typeof input === 'string') return milliValues.get(input) ?? milliValues.set(input, readString(input, -3));
  decodeValue(input);
  return readScaled(-3);
}

function readString(text: string, scale: 0 | -3): number {
  decode(text);
  return readScaled(scale);
}

/**
 * The quantity in units of 10^scale (0 or -3) when that is a whole number below 2^53, else
 * undefined. Sums and maxima of such values equal upstream's sums of Quantities read afterwards.
 */
export function exactScaledValue(input: QuantityValue | null | undefined, scale: 0 | -3): number | undefined {
  if (typeof input === 'string') {
    const readings = scale === 0 ? exactValues : exactMilliValues;
    const v = readings.get(input) ?? readings.set(input, exactReading(input, scale) ?? NaN);
    return Number.isNaN(v) ? undefined : v;
  }
  return exactReading(input, scale);
}

function exactReading(input: QuantityValue | null | undefined, scale: 0 | -3): number | undefined {
  decodeValue(input);
  if (rBig !== null) return undefined;
  const u = scratch.num;
  if (u === 0) return 0;
  // Both forms hold an exact mantissa × 10^exponent; an exact result reads the same from either.
  const e = rExp;
  if (e < scale) {
    const p = POW10[scale - e];
    if (p === undefined || u % p !== 0) return undefined;
    return u / p;
  }
  const s = e - scale;
  if (s > 15) return undefined;
  const v = u * POW10[s]!;
  return v <= MAX_SAFE && v >= -MAX_SAFE ? v : undefined;
}
