/**
 * weather.php's `air_quality` and `pollen` from interpolated CAMS values.
 *
 * The index is recomputed from the interpolated concentrations (bilinear in
 * space, linear in time), not interpolated from an index grid: the index, its
 * level and the dominant pollutant then agree with the concentrations the
 * response reports. docs/air-quality.md gives the difference measured on the
 * real CAMS file.
 */
import { europeanAqiSummary, overallPollenRisk, pollenClassifier, pollenLevelLabelIt, type PollenLevel, type PollenRisk } from '../../../science/index.js';
import { EAQI_POLLUTANTS, POLLEN_SPECIES, type AirQualityBody, type PollenBody } from './schema.js';

const round1 = (x: number) => Math.round(x * 10) / 10;
const value = (v: number | null | undefined): number | null => (v === null || v === undefined || Number.isNaN(v) ? null : round1(Math.max(0, v)));

/** Stored variable of each pollen species. */
export const POLLEN_VARIABLE = Object.fromEntries(POLLEN_SPECIES.map((s) => [s, `${s}_pollen`])) as Record<(typeof POLLEN_SPECIES)[number], string>;

/** Everything the group may read (a product carries a subset: the rest stays null). */
export const CAMS_VARIABLES: readonly string[] = [...EAQI_POLLUTANTS, ...Object.values(POLLEN_VARIABLE)];

type Values = Readonly<Record<string, number | null | undefined>>;

/** A concentration for the index: unrounded but non-negative; undefined (skipped by europeanAqi) when not carried. */
const forIndex = (v: number | null | undefined): number | undefined => (v === null || v === undefined || Number.isNaN(v) ? undefined : Math.max(0, v));

/**
 * `air_quality` from concentrations in µg/m³ (null or absent: not carried).
 * The objects are literals of one shape, the pollutants named (the types
 * check them against EAQI_POLLUTANTS): stores by a computed name into objects
 * grown key by key cost about 1 µs per answer here.
 */
export function airQuality(values: Values, source: string): AirQualityBody {
  const pm25 = values.pm2_5;
  const pm10 = values.pm10;
  const no2 = values.nitrogen_dioxide;
  const o3 = values.ozone;
  const so2 = values.sulphur_dioxide;
  // The index from the unrounded (but non-negative) concentrations.
  const aqi = europeanAqiSummary(forIndex(pm25), forIndex(pm10), forIndex(no2), forIndex(o3), forIndex(so2));
  const level = aqi.label;
  return {
    eaqi: level !== null ? { value: round1(aqi.value), label: aqi.labelIt!, level } : null,
    dominant_pollutant: level !== null ? aqi.dominant : null,
    pm2_5: value(pm25),
    pm10: value(pm10),
    nitrogen_dioxide: value(no2),
    ozone: value(o3),
    sulphur_dioxide: value(so2),
    source,
  };
}

/** A species' entry of `pollen.species` (SpeciesSchema). */
interface SpeciesBody {
  value: number;
  risk: PollenLevel;
  risk_it: string;
}

/** Each species' class (science/pollen.ts), its table looked up once. */
const ALDER = pollenClassifier('alder');
const BIRCH = pollenClassifier('birch');
const GRASS = pollenClassifier('grass');
const MUGWORT = pollenClassifier('mugwort');
const OLIVE = pollenClassifier('olive');
const RAGWEED = pollenClassifier('ragweed');

/** One species' value and class, null when the source does not carry it. */
function species(classify: (grainsPerM3: number) => PollenRisk, raw: number | null | undefined): SpeciesBody | null {
  const v = value(raw);
  if (v === null) return null;
  const r = classify(v);
  return { value: v, risk: r.risk!, risk_it: r.label! };
}

/** `pollen` from concentrations in grains/m³ (one literal per object, as airQuality). */
export function pollen(values: Values, source: string): PollenBody {
  const all = {
    alder: species(ALDER, values.alder_pollen),
    birch: species(BIRCH, values.birch_pollen),
    grass: species(GRASS, values.grass_pollen),
    mugwort: species(MUGWORT, values.mugwort_pollen),
    olive: species(OLIVE, values.olive_pollen),
    ragweed: species(RAGWEED, values.ragweed_pollen),
  } satisfies Record<(typeof POLLEN_SPECIES)[number], SpeciesBody | null>;
  const risk = overallPollenRisk([all.alder?.risk ?? null, all.birch?.risk ?? null, all.grass?.risk ?? null, all.mugwort?.risk ?? null, all.olive?.risk ?? null, all.ragweed?.risk ?? null]);
  return { risk, risk_it: risk ? pollenLevelLabelIt(risk) : null, species: all, source };
}
