/**
 * weather.php's `air_quality` and `pollen` from interpolated CAMS values.
 *
 * The index is recomputed from the interpolated concentrations (bilinear in
 * space, linear in time), not interpolated from an index grid: the index, its
 * level and the dominant pollutant then agree with the concentrations the
 * response reports. docs/air-quality.md gives the difference measured on the
 * real CAMS file.
 */
import { europeanAqi, overallPollenRisk, pollenLevelLabelIt, pollenRisk, type PollenLevel } from '../../../science/index.js';
import { EAQI_POLLUTANTS, POLLEN_SPECIES, type AirQualityBody, type PollenBody } from './schema.js';

const round1 = (x: number) => Math.round(x * 10) / 10;
const value = (v: number | null | undefined): number | null => (v === null || v === undefined || Number.isNaN(v) ? null : round1(Math.max(0, v)));

/** Stored variable of each pollen species. */
export const POLLEN_VARIABLE = Object.fromEntries(POLLEN_SPECIES.map((s) => [s, `${s}_pollen`])) as Record<(typeof POLLEN_SPECIES)[number], string>;

/** Everything the group may read (a product carries a subset: the rest stays null). */
export const CAMS_VARIABLES: readonly string[] = [...EAQI_POLLUTANTS, ...Object.values(POLLEN_VARIABLE)];

/** `air_quality` from concentrations in µg/m³ (null or absent: not carried). */
export function airQuality(values: Readonly<Record<string, number | null>>, source: string): AirQualityBody {
  const conc: Partial<Record<(typeof EAQI_POLLUTANTS)[number], number>> = {};
  const out = { eaqi: null, dominant_pollutant: null } as AirQualityBody;
  for (const p of EAQI_POLLUTANTS) {
    const v = value(values[p]);
    out[p] = v;
    // The index from the unrounded (but non-negative) concentration.
    if (v !== null) conc[p] = Math.max(0, values[p]!);
  }
  const aqi = europeanAqi(conc);
  if (aqi.label !== null) {
    out.eaqi = { value: round1(aqi.value), label: aqi.labelIt!, level: aqi.label };
    out.dominant_pollutant = aqi.dominant;
  }
  out.source = source;
  return out;
}

/** `pollen` from concentrations in grains/m³. */
export function pollen(values: Readonly<Record<string, number | null>>, source: string): PollenBody {
  const species = {} as PollenBody['species'];
  const levels: (PollenLevel | null)[] = [];
  for (const s of POLLEN_SPECIES) {
    const v = value(values[POLLEN_VARIABLE[s]]);
    if (v === null) {
      (species as Record<string, unknown>)[s] = null;
      continue;
    }
    const r = pollenRisk(s, v);
    levels.push(r.risk);
    (species as Record<string, unknown>)[s] = { value: v, risk: r.risk, risk_it: r.label };
  }
  const risk = overallPollenRisk(levels);
  return { risk, risk_it: risk ? pollenLevelLabelIt(risk) : null, species, source };
}
