// Go's time.Duration.String() for millisecond durations, for messages upstream formats with %v
// (e.g. "rejected due to timeout after waiting 1m30s at plugin X").

/** Formats `ms` as Go prints a Duration: "0s", "500ms", "1.5s", "1m0s", "2h3m4.5s". */
export function formatGoDuration(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs === 0) return '0s';
  if (abs < 1) return `${sign}${trimFraction((abs * 1000).toFixed(3))}µs`;
  if (abs < 1000) return `${sign}${trimFraction(abs.toFixed(6))}ms`;
  const totalSeconds = abs / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = trimFraction((totalSeconds % 60).toFixed(9));
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

function trimFraction(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
