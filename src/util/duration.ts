// Go durations: parsing as time.ParseDuration (metav1.Duration in JSON) and printing as
// Duration.String, for messages upstream formats with %v (e.g. "rejected due to timeout after
// waiting 1m30s at plugin X").

const unitNanos: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3, // U+00B5 micro sign
  'μs': 1e3, // U+03BC Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

export class DurationError extends Error {
  override name = 'DurationError';
}

const goQuote = (s: string): string => JSON.stringify(s);

/** Parses a Go duration ("300ms", "-1.5h", "2h45m", "0") into nanoseconds, as time.ParseDuration. */
export function parseDurationNanos(text: string): number {
  const invalid = (): DurationError => new DurationError(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const intDigits = num[1]!;
    const fracDigits = num[2];
    if (intDigits === '' && (fracDigits === undefined || fracDigits === '')) throw invalid();
    s = s.slice(num[0].length);
    let unitLen = 0;
    while (unitLen < s.length && !/[0-9.]/.test(s[unitLen]!)) unitLen++;
    if (unitLen === 0) throw new DurationError(`time: missing unit in duration ${goQuote(text)}`);
    const unit = s.slice(0, unitLen);
    s = s.slice(unitLen);
    const scale = unitNanos[unit];
    if (scale === undefined) throw new DurationError(`time: unknown unit ${goQuote(unit)} in duration ${goQuote(text)}`);
    total += Number(intDigits || '0') * scale;
    if (fracDigits) total += Math.floor((Number(`0.${fracDigits}`) * scale) + 1e-6);
    // Go durations are int64 nanoseconds (about 292 years).
    if (!Number.isFinite(total) || total > 9.223372036854776e18) throw invalid();
  }
  return neg ? -total : total;
}

/** Parses a Go duration into milliseconds (fractional below 1ms). */
export function parseDuration(text: string): number {
  return parseDurationNanos(text) / 1e6;
}

function withFraction(value: number, digits: number): string {
  const unit = 10 ** digits;
  const whole = Math.floor(value / unit);
  let frac = String(value % unit).padStart(digits, '0').replace(/0+$/, '');
  if (frac !== '') frac = `.${frac}`;
  return `${whole}${frac}`;
}

/** Formats nanoseconds as Go's Duration.String does ("1h0m0s", "1.5s", "300ms", "0s"). */
export function formatDurationNanos(nanos: number): string {
  const sign = nanos < 0 ? '-' : '';
  const u = Math.round(Math.abs(nanos));
  if (u === 0) return '0s';
  if (u < 1e3) return `${sign}${u}ns`;
  if (u < 1e6) return `${sign}${withFraction(u, 3)}µs`;
  if (u < 1e9) return `${sign}${withFraction(u, 6)}ms`;
  const totalMinutes = Math.floor(u / 60e9);
  let out = `${withFraction(u % 60e9, 9)}s`;
  if (totalMinutes > 0) {
    out = `${totalMinutes % 60}m${out}`;
    const hours = Math.floor(totalMinutes / 60);
    if (hours > 0) out = `${hours}h${out}`;
  }
  return sign + out;
}

/** Formats `ms` as Go prints a Duration: "0s", "500ms", "1.5s", "1m0s", "2h3m4.5s". */
export function formatGoDuration(ms: number): string {
  return formatDurationNanos(ms * 1e6);
}
