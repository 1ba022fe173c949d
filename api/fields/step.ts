/**
 * Length of the interval a stored amount or mean flux covers at a valid
 * time. Precipitation is stored as the amount over the step ending at its
 * time (and radiation as the mean over it), and read at t from the step
 * ending at the first time ≥ t (tiles/read/point-lookup.ts), so that step's length
 * is the one that matters, unless the manifest gives the amount's own
 * interval. 3 mm over a 3-hour step is 1 mm/h (drizzle), not 3 mm/h (rain);
 * a daily amount is not an hourly one.
 */

/**
 * @param timesMs the version's valid times, ms, ascending
 * @param tMs the valid time asked for, ms
 * @param intervalSeconds the amount's own interval when the manifest gives one (an ERA5 1-hour total in a 3-hourly file), s
 * @returns hours; before the second time, the first gap; 1 with fewer than two times
 */
export function stepHoursAt(timesMs: Float64Array, tMs: number, intervalSeconds?: number): number {
  if (intervalSeconds !== undefined) return intervalSeconds / 3600;
  const n = timesMs.length;
  if (n < 2) return 1;
  let lo = 1;
  let hi = n - 1;
  // First k ≥ 1 with times[k] ≥ t (the last one when t is beyond).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (timesMs[mid]! < tMs) lo = mid + 1;
    else hi = mid;
  }
  return (timesMs[lo]! - timesMs[lo - 1]!) / 3_600_000;
}
