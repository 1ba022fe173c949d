/** The quota day: a UTC calendar day, resetting at 00:00 UTC. */

const DAY_MS = 86_400_000;

// The last day asked for: every request of a day asks for the same one, and
// formatting a Date cost ~2 % of a request's server CPU.
let lastDay = NaN;
let lastDate = '';

/** `YYYY-MM-DD` of the UTC day containing `nowMs`. */
export function utcDate(nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (day !== lastDay) {
    lastDate = new Date(nowMs).toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastDate;
}

/** Milliseconds from `nowMs` to the next 00:00 UTC (in 1..86 400 000). */
export function msUntilUtcMidnight(nowMs: number): number {
  return DAY_MS - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS);
}
