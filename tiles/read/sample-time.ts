/**
 * The ISO 8601 text of a sample's time (PointSample `time`), as
 * `Date.prototype.toISOString` writes it. A request without `time=` asks at
 * the wall clock's millisecond, so its two lookup times (now, and the trend's
 * three hours back) are new at nearly every request: two `toISOString` per
 * answer, 0.25–0.45 µs each on the bench VM (a Business answer's point reads
 * cost 3.3–5 µs). Consecutive requests share the second, so the text up to
 * the second is kept for the last two seconds and the milliseconds are
 * appended from a table (docs/benchmarks-journal.md, "The point read under a
 * Business answer").
 */

/** `.000Z` … `.999Z`. */
const MILLIS = Array.from({ length: 1000 }, (_, ms) => `.${String(ms).padStart(3, '0')}Z`);

export class SampleTimes {
  // The last two times asked and their texts (a request's lookups ask the same two times again).
  private ms0 = NaN;
  private t0 = '';
  private ms1 = NaN;
  private t1 = '';
  // The last two seconds (ms since the epoch / 1000) made by toISOString and their text up to the second (`2026-11-27T11:48:08`).
  private s0 = NaN;
  private p0 = '';
  private s1 = NaN;
  private p1 = '';

  /** `new Date(ms).toISOString()`. */
  iso(ms: number): string {
    if (ms === this.ms0) return this.t0;
    if (ms === this.ms1) return this.t1;
    const text = this.make(ms);
    this.ms1 = this.ms0;
    this.t1 = this.t0;
    this.ms0 = ms;
    this.t0 = text;
    return text;
  }

  private make(ms: number): string {
    // A fractional ms (Date truncates it toward zero) is left to toISOString.
    if (!Number.isInteger(ms)) return new Date(ms).toISOString();
    const s = Math.floor(ms / 1000);
    const frac = ms - s * 1000;
    if (s === this.s0) return this.p0 + MILLIS[frac]!;
    if (s === this.s1) return this.p1 + MILLIS[frac]!;
    const text = new Date(ms).toISOString();
    // A year outside 0000–9999 is written ±YYYYYY: not cached.
    if (text.length !== 24) return text;
    this.s1 = this.s0;
    this.p1 = this.p0;
    this.s0 = s;
    this.p0 = text.slice(0, 19);
    return text;
  }
}
