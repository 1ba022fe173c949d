/**
 * The base builder: weather.php's Free fields (temperature with altitude
 * correction, humidity, pressure, wind, condition, 3-hour trend) from the
 * product answering feed 'base' (nwp; sm100 inside San Marino; a reanalysis
 * year before the forecast) and, without `alt`, the 'elevation' feed (DEM).
 * It records what it computed (ctx.shared) so that later builders agree with
 * the temperature the response reports.
 */
import { describeResolution } from '../../../geo/grid.js';
import { isInSanMarino } from '../../../geo/regions.js';
import type { Manifest } from '../../../tiles/manifest.js';
import { assembleFreeInto } from './fields.js';
import { isUsableProductCode } from './condition.js';
import { FreeFieldsSchema } from './schema.js';
import { stepHoursAt } from '../step.js';
import { TREND_HOURS } from './trend.js';
import { freeVariablePlan, TREND_VARIABLES, type VariablePlan } from './variables.js';
import { defineBuilder, type FeedView } from '../contract.js';
import { describeTimeBasis, signed } from './source.js';

const ELEVATION = ['elevation'] as const;

interface BasePlan extends VariablePlan {
  resolution: string;
  /** The temperature is a mean over an interval: "daily mean" (./source.ts). */
  timeBasis: string | undefined;
  /** A 3-hour change can be read off the temperature: not from means over more than 3 hours (a daily file). */
  trend: boolean;
  /** The precipitation amount's own interval when the manifest gives one, s (../step.ts): looked up once, not per answer. */
  precipitationIntervalS: number | undefined;
}

/** Per manifest (so per version) its variable plan, resolution and time basis: computed once. */
const plans = new WeakMap<Manifest, BasePlan>();
function planOf(m: Manifest): BasePlan {
  let p = plans.get(m);
  if (!p) {
    const t = m.variables.temperature_2m?.interval;
    plans.set(m, (p = {
      ...freeVariablePlan(m),
      resolution: m.layout === 'periods' ? describePeriodSource(m) : describeForecastSource(m),
      timeBasis: describeTimeBasis(t),
      trend: t === undefined || (t.seconds !== undefined && t.seconds <= TREND_HOURS * 3600),
      precipitationIntervalS: m.variables.precipitation?.interval?.seconds,
    }));
  }
  return p;
}

/**
 * A forecast names the model that made it before its spacing ("nwp ICON-2I
 * 2.2 km bilinear, …", "nwp DWD ICON-EU 6.9 km …"): with a primary model and
 * a fallback, the answer says which one it is. Not for a derived grid (its
 * derivation names its source) nor the sample (its label says what it is).
 */
function describeForecastSource(m: Manifest): string {
  const res = describeResolution(m.grid);
  return m.source.model && !m.derived_from && m.source.sample !== true ? `${m.source.model} ${res}` : res;
}

/**
 * A reanalysis year is named by its source and native spacing in degrees, as
 * the reanalyses publish it ("ERA5 0.25°", "20CRv3 1°"): temperature_source
 * then reads "reanalysis ERA5 0.25° bilinear, …".
 */
function describePeriodSource(m: Manifest): string {
  const deg = m.grid.kind === 'regular_ll' ? `${+m.grid.dy.toFixed(4)}°` : describeResolution(m.grid);
  return m.source.model ? `${m.source.model} ${deg}` : deg;
}

export const baseBuilder = defineBuilder({
  name: 'base',
  minPlan: 'free',
  groups: {},
  reads: [
    {
      feed: 'base',
      variables: (m) => planOf(m).primary,
      history: { offsetMs: -TREND_HOURS * 3_600_000, variables: TREND_VARIABLES },
      extra: { variables: (m) => planOf(m).conditionFallback, when: (now) => !isUsableProductCode(now.values.weather_code) },
      required: { what: 'weather' },
    },
    { feed: 'elevation', variables: () => ELEVATION, static: true, when: (q) => q.altM === undefined },
  ],
  properties: FreeFieldsSchema.properties,
  required: Object.keys(FreeFieldsSchema.properties),
  build(ctx) {
    const base = ctx.feed('base')!;
    const m = base.manifest;
    const plan = planOf(m);
    const dem = ctx.feed('elevation');
    const d = derivation(base, ctx.q.lat, ctx.q.lon);
    const sh = ctx.shared;
    assembleFreeInto({
      lat: ctx.q.lat,
      lon: ctx.q.lon,
      altM: ctx.q.altM,
      product: m.product,
      resolution: plan.resolution,
      sample: m.source.sample === true,
      now: base.now,
      validTimeMs: ctx.q.timeMs,
      sun: ctx.sun,
      stepHours: stepHoursAt(base.timesMs, ctx.q.timeMs, plan.precipitationIntervalS),
      pastTempC: plan.trend ? (base.past?.values.temperature_2m ?? null) : null,
      demElevationM: dem?.now.values.elevation ?? null,
      // sm100 answers the elevation too: its 100 m cell is the point's elevation, not a coarser DEM's.
      demIsGrid: dem !== null && dem.manifest === m,
      // Named, possibly undefined, not spread in: literals of varying shape cost ~0.8 µs each (api/fields/developer/et0.ts).
      timeBasis: plan.timeBasis,
      derivation: d.derivation,
      note: d.note,
    }, ctx.out, sh);
    sh.demElevationM = dem?.now.values.elevation ?? null;
  },
});

/** What temperature_source says beyond the grid (undefined: nothing), one object shape. */
interface Derivation {
  derivation: string | undefined;
  note: string | undefined;
}

const NO_DERIVATION: Derivation = { derivation: undefined, note: undefined };

/**
 * temperature_source's account of a derived grid (sm100: "downscaled from nwp
 * 2.2 km with dT/dz −5.9 K/km fitted (R² 0.93)") and, in San Marino on the
 * forecast path, why sm100 did not answer.
 */
function derivation(base: FeedView, lat: number, lon: number): Derivation {
  const m = base.manifest;
  const d = m.derived_from;
  if (d) {
    const g = base.now.values.temperature_gradient;
    const r2 = base.now.values.temperature_gradient_r2;
    const how = g == null ? '' : r2 != null && Number.isFinite(r2) ? ` with dT/dz ${signed(g)} K/km fitted (R² ${r2.toFixed(2)})` : ` with dT/dz ${signed(g)} K/km (standard: no good fit)`;
    return { derivation: `downscaled from ${d.product}${d.resolution ? ` ${d.resolution}` : ''}${how}`, note: undefined };
  }
  // A loop, not find() with a closure: nearly always over an empty list, on every answer.
  let stale: FeedView['passedOver'][number] | undefined;
  for (const p of base.passedOver) {
    if (p.why === 'stale') {
      stale = p;
      break;
    }
  }
  if (stale?.why === 'stale') {
    return { derivation: undefined, note: `${stale.product} not used: it was built from ${stale.derivedFrom.product} ${stale.derivedFrom.version}, not the live ${stale.derivedFrom.product} ${stale.live ?? '(none)'}` };
  }
  // Not published at all: the manifests cannot say so, the border can.
  if (m.layout === 'forecast' && isInSanMarino(lat, lon)) return { derivation: undefined, note: 'sm100 100 m not published (no DEM ingested: meteopunto ingest sm100 <dem file>)' };
  return NO_DERIVATION;
}
