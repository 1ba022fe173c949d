/**
 * Accumulations → per-step amounts.
 *
 * Producers deliver time-integrated quantities in two ways:
 * - accumulated from a fixed start, usually the run start (ECMWF IFS `tp`,
 *   `ssrd` 0–1 h, 0–2 h, ...; ICON `TOT_PREC`; ICON `ASWDIR_S` is a mean
 *   since the run start, which ingest/mapping/map-fields.ts turns into an amount
 *   first): the amount over the step (t₁, t₂] is A(t₂) − A(t₁);
 * - already per interval (COSMO-2I `tp` 18–24 h, ERA5 hourly `tp`): kept as
 *   the amount over that interval, which ends at the valid time.
 *
 * So each point of a series is differenced against the latest earlier point
 * *with the same interval start*; a point without one keeps its own interval.
 * A zero-length interval (step 0 of a forecast) carries no information and
 * is dropped.
 */

export interface AccumPoint<T> {
  validTime: Date;
  /** Start of the interval the amount covers. */
  intervalStart: Date;
  /** Amount over [intervalStart, validTime] in the canonical amount unit (mm, J/m²). */
  amount: Float32Array;
  meta: T;
}

export interface StepAmount<T> {
  validTime: Date;
  /** Start of the step this amount covers (the previous output time, or the interval start). */
  stepStart: Date;
  amount: Float32Array;
  meta: T;
}

/** Per-step amounts of one series (one variable, one run, one grid). Input order does not matter. */
export function deaccumulate<T>(points: readonly AccumPoint<T>[]): StepAmount<T>[] {
  const sorted = [...points].sort((a, b) => a.validTime.getTime() - b.validTime.getTime());
  const latestByStart = new Map<number, AccumPoint<T>>();
  const out: StepAmount<T>[] = [];
  for (const p of sorted) {
    const start = p.intervalStart.getTime();
    if (p.validTime.getTime() <= start) continue;
    const prev = latestByStart.get(start);
    if (prev && prev.validTime.getTime() < p.validTime.getTime()) {
      out.push({ validTime: p.validTime, stepStart: prev.validTime, amount: difference(p.amount, prev.amount), meta: p.meta });
    } else if (!prev) {
      out.push({ validTime: p.validTime, stepStart: p.intervalStart, amount: p.amount, meta: p.meta });
    }
    // Same valid time and start twice (a duplicate message): the first one stands.
    if (!prev || prev.validTime.getTime() < p.validTime.getTime()) latestByStart.set(start, p);
  }
  return out;
}

function difference(a: Float32Array, b: Float32Array): Float32Array {
  const d = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i]! - b[i]!;
  return d;
}

/**
 * Interval starts for a series whose fields carry no interval (NetCDF
 * files: ERA5 hourly `tp` is the amount over the hour ending at the time
 * stamp): each point starts at the previous time of the series; the first one
 * assumes the spacing of the next; a lone point assumes `defaultStepMs`
 * (one hour, the ERA5 convention).
 */
export function inferIntervalStarts(validTimesMs: readonly number[], defaultStepMs = 3_600_000): number[] {
  const order = validTimesMs.map((t, i) => [t, i] as const).sort((a, b) => a[0] - b[0]);
  const starts = new Array<number>(validTimesMs.length);
  for (let k = 0; k < order.length; k++) {
    const [t, i] = order[k]!;
    let step = defaultStepMs;
    if (k > 0) step = t - order[k - 1]![0];
    else if (order.length > 1) step = order[1]![0] - t;
    if (step <= 0) step = defaultStepMs;
    starts[i] = t - step;
  }
  return starts;
}
