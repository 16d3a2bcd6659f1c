/** The published format's JSON scalars: Duration "95s" / "0.25s" and Timestamp RFC 3339 UTC. */

const NANOS = 1e9;

function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const digits = String(nanos).padStart(9, '0');
  // Proto3 JSON prints 3, 6 or 9 fractional digits.
  return `.${digits.endsWith('000000') ? digits.slice(0, 3) : digits.endsWith('000') ? digits.slice(0, 6) : digits}`;
}

function split(seconds: number): { whole: number; nanos: number } {
  let whole = Math.floor(seconds);
  let nanos = Math.round((seconds - whole) * NANOS);
  if (nanos >= NANOS) {
    whole += 1;
    nanos -= NANOS;
  }
  return { whole, nanos };
}

/** Seconds (≥ 0) as a Duration string. */
export function durationJson(seconds: number): string {
  const { whole, nanos } = split(Math.max(0, seconds));
  return `${whole}${fraction(nanos)}s`;
}

/** Epoch seconds as an RFC 3339 UTC Timestamp string. */
export function timestampJson(epochSeconds: number): string {
  const { whole, nanos } = split(epochSeconds);
  return `${new Date(whole * 1000).toISOString().slice(0, 19)}${fraction(nanos)}Z`;
}
