/**
 * The derived indices the nwp ingest precomputes on the grid (docs/architecture.md:
 * "Derived indices stored per product"): one entry per stored variable with
 * its unit, packing precision, CF metadata, the canonical inputs it needs and
 * the method (docs/science.md "Precomputed tile variables"). `deriveIndices` computes an index
 * only when every input it needs is present (alternatives: any one of a set).
 *
 * Precisions are the int16 packing step (tiles/codecs/packing.ts): 0.01 for
 * temperatures as temperature_2m, 0.01 UV index units, 0.001 mm of ET0.
 */

/** One precomputed index. */
export interface IndexSpec {
  units: string;
  precision: number;
  longName: string;
  /** Point-reader rule: classes are read 'nearest'. */
  interpolation: 'linear' | 'nearest';
  /**
   * Inputs, canonical names: each entry is one input; an array means "any of
   * these" (e.g. relative humidity or dew point).
   */
  inputs: readonly (string | readonly string[])[];
  /** One line on the method, with its reference (also in docs/science.md). */
  method: string;
}

/** Humidity from either variable (nwp/complete.ts derives the missing one). */
const HUMIDITY = ['relative_humidity_2m', 'dew_point_2m'] as const;
/** Station pressure, or mean-sea-level pressure reduced to the model orography. */
const PRESSURE = ['surface_pressure', 'pressure_msl+elevation'] as const;
const WIND = ['wind_u_10m+wind_v_10m'] as const;

export const INDEX_VARIABLES = {
  mean_radiant_temperature: {
    units: '°C',
    precision: 0.01,
    interpolation: 'linear',
    longName: 'mean radiant temperature of a standing person outdoors (sun at mid-step)',
    inputs: ['temperature_2m', 'shortwave_radiation', 'longwave_radiation'],
    method:
      'Di Napoli et al. (2020) / ISO 7726 with the NWP fluxes; direct radiation from the product, else ' +
      'direct = fdir·GHI with Liljegren et al. (2008) eq. 13; sun at the middle of the radiation step',
  },
  utci: {
    units: '°C',
    precision: 0.01,
    interpolation: 'linear',
    longName: 'Universal Thermal Climate Index',
    inputs: ['temperature_2m', HUMIDITY, WIND, 'shortwave_radiation', 'longwave_radiation'],
    method: 'Bröde et al. (2012) 6th-order polynomial from T, Tmrt, 10 m wind and RH; NaN outside its validity domain',
  },
  wbgt_sun: {
    units: '°C',
    precision: 0.01,
    interpolation: 'linear',
    longName: 'wet bulb globe temperature in the sun (Liljegren)',
    inputs: ['temperature_2m', HUMIDITY, WIND, PRESSURE, 'shortwave_radiation'],
    method: 'Liljegren et al. (2008), 10 m wind reduced to 2 m by stability class (rural); sun at mid-step',
  },
  wbgt_shade: {
    units: '°C',
    precision: 0.01,
    interpolation: 'linear',
    longName: 'wet bulb globe temperature in the shade (Liljegren, no solar load)',
    inputs: ['temperature_2m', HUMIDITY, WIND, PRESSURE, 'shortwave_radiation'],
    method: 'Liljegren et al. (2008) with S = 0 (no solar load); equals wbgt_sun at night',
  },
  uv_index_clear_sky: {
    units: '1',
    precision: 0.01,
    interpolation: 'linear',
    longName: 'clear-sky UV index',
    inputs: ['total_ozone'],
    method: 'Madronich (2007): 12.5 μ0^2.42 (Ω/300 DU)^-1.23, sun at the valid time',
  },
  uv_index: {
    units: '1',
    precision: 0.01,
    interpolation: 'linear',
    longName: 'UV index (clear sky × NWP cloud modification)',
    inputs: ['total_ozone', ['shortwave_radiation', 'cloud_cover']],
    method:
      'clear-sky UV index × cloud modification factor GHI/GHI_clear (Haurwitz) from the NWP shortwave ' +
      '(sun at mid-step), else from total cloud cover (US EPA table)',
  },
  frost_risk: {
    units: '1',
    precision: 1,
    interpolation: 'nearest',
    longName: 'frost risk class: 0 none, 1 low, 2 moderate, 3 high',
    // The class does not depend on humidity (only hoar vs black frost does, reported at read time).
    inputs: ['temperature_2m', 'cloud_cover', WIND],
    method: 'screen temperature and the ground temperature estimated from cloud and wind (docs/science.md "Frost method")',
  },
  et0: {
    units: 'mm',
    precision: 0.001,
    interpolation: 'linear',
    longName: 'FAO-56 reference evapotranspiration over the preceding step',
    inputs: ['temperature_2m', HUMIDITY, WIND, 'shortwave_radiation', 'elevation'],
    method:
      'FAO-56 Penman–Monteith hourly form (eq. 53) over the step ending at the valid time; ea from the dew point; ' +
      'pressure from the surface pressure when present, else from the elevation (eq. 7)',
  },
} as const satisfies Record<string, IndexSpec>;

export type IndexName = keyof typeof INDEX_VARIABLES;

/** Cache group of every index (tiles/read/block.ts): only Developer and Business requests read them. */
export const INDEX_BLOCK = 'developer';

/** Frost-risk identifiers (science/ FROST_RISK_LEVELS) in code order: the stored value is the index. */
export const FROST_RISK_CODES = ['none', 'low', 'moderate', 'high'] as const;

/** Whether one input (a name, or 'a+b' meaning both) is present. */
function present(has: (name: string) => boolean, input: string): boolean {
  return input.split('+').every(has);
}

/**
 * The indices whose inputs are all present, in catalogue order.
 *
 * @param has whether a canonical variable is present in the stack
 */
export function computableIndices(has: (name: string) => boolean): IndexName[] {
  return (Object.keys(INDEX_VARIABLES) as IndexName[]).filter((name) =>
    INDEX_VARIABLES[name].inputs.every((inp) =>
      typeof inp === 'string' ? present(has, inp) : inp.some((alt) => present(has, alt)),
    ),
  );
}
