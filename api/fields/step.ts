/**
 * Length of the model step a stored amount or mean flux covers at a valid
 * time. Precipitation is stored as the amount over the step ending at its
 * time (and radiation as the mean over it); a value interpolated between two
 * times mostly comes from the later one, so the step that matters is the one
 * ending at the first time ≥ t. 3 mm over a 3-hour step is 1 mm/h (drizzle),
 * not 3 mm/h (rain); a daily amount is not an hourly one.
 */

/**
 * @param timesMs the version's valid times, ms, ascending
 * @param tMs the valid time asked for, ms
 * @returns hours; before the second time, the first gap; 1 with fewer than two times
 */
export function stepHoursAt(timesMs: Float64Array, tMs: number): number {
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
