/** The quota day: a UTC calendar day, resetting at 00:00 UTC. */

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the UTC day containing `nowMs`. */
export function utcDate(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** Milliseconds from `nowMs` to the next 00:00 UTC (in 1..86 400 000). */
export function msUntilUtcMidnight(nowMs: number): number {
  return DAY_MS - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS);
}
