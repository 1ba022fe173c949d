/**
 * Source units → canonical units. The source's own `units` string drives the
 * conversion (never the variable name): ERA5-Land NetCDF writes 2 m
 * temperature in °C where GRIB gives K, ICON gives cloud cover in % where ERA5
 * gives 0..1.
 *
 * Quantities that live over a time step (precipitation, radiation) are first
 * brought to an *amount* (mm of water, J/m²); the accumulation step
 * (ingest/mapping/accumulation.ts) turns amounts into per-step amounts or mean
 * fluxes. A source given as a rate (kg m-2 s-1, W m-2, m day-1) becomes an
 * amount by multiplying by the interval length.
 */

/** How one source unit maps onto a canonical unit. */
export type UnitRule =
  /** canonical = source × scale + offset */
  | { kind: 'value'; scale: number; offset: number }
  /** amount (mm or J/m²) = source × scale */
  | { kind: 'amount'; scale: number }
  /** amount (mm or J/m²) = source × scale × interval seconds */
  | { kind: 'rate'; scale: number };

const value = (scale: number, offset = 0): UnitRule => ({ kind: 'value', scale, offset });
const amount = (scale: number): UnitRule => ({ kind: 'amount', scale });
const rate = (scale: number): UnitRule => ({ kind: 'rate', scale });

/** Standard gravity, m s⁻² (WMO-No. 8): geopotential (m² s⁻²) / g = geopotential height (m). */
export const STANDARD_GRAVITY = 9.80665;
/** Mass of one Dobson unit of ozone, kg m⁻² (2.6867e20 molecules m⁻² × 47.997 g/mol / Avogadro). */
export const KG_PER_M2_PER_DU = 2.1415e-5;
/** Moles of ozone per m² in one Dobson unit (2.6867e20 / 6.02214e23). */
export const MOL_PER_M2_PER_DU = 4.4615e-4;

/**
 * Air density used to turn a mass mixing ratio (kg/kg) into a mass
 * concentration (µg/m³) for a surface field: the ICAO / ISO 2533:1975
 * standard atmosphere at mean sea level, p = 101325 Pa, T = 288.15 K,
 * ρ = p / (R_d·T) = 1.2250 kg/m³ (R_d = 287.05287 J kg⁻¹ K⁻¹). CAMS global
 * (EAC4) gives surface mixing ratios on the lowest model level (~10 m above
 * ground), where the standard atmosphere differs from the actual density by
 * the actual T and p (±10 % between −20 °C and +35 °C): the file's own
 * temperature and pressure are not in a concentration file, so the standard
 * value is used (docs/air-quality.md, "Sources").
 */
export const STANDARD_AIR_DENSITY_KG_M3 = 101_325 / (287.05287 * 288.15);

const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 86_400;

const FRACTION = ['1', '(0 - 1)', '0 - 1', '(0-1)', '0-1', 'fraction', 'dimensionless', '~'];

/** Per canonical unit: accepted source units (normalised, see normaliseUnits) and their rule. */
const RULES: Record<string, Record<string, UnitRule>> = {
  '°C': {
    ...same(['k', 'kelvin', 'deg k', 'degk', 'degrees_kelvin'], value(1, -273.15)),
    ...same(['c', '°c', 'degc', 'deg c', 'celsius', 'degree_celsius', 'degrees_celsius', 'degree celsius', 'degrees celsius', 'degrees_c', 'degree_c'], value(1)),
  },
  hPa: {
    ...same(['pa', 'pascal', 'pascals'], value(0.01)),
    ...same(['hpa', 'mb', 'mbar', 'millibar', 'millibars'], value(1)),
    kpa: value(10),
  },
  'm/s': {
    ...same(['m s-1', 'm/s', 'ms-1', 'm sec-1', 'meter second-1', 'metre second-1', 'meters per second'], value(1)),
    ...same(['km/h', 'km h-1', 'kmh-1'], value(1 / 3.6)),
    ...same(['kt', 'knot', 'knots'], value(1852 / 3600)),
  },
  '%': {
    ...same(['%', 'percent', 'pct'], value(1)),
    ...same(FRACTION, value(100)),
  },
  '1': {
    ...same(FRACTION, value(1)),
    ...same(['%', 'percent'], value(0.01)),
  },
  mm: {
    ...same(['kg m-2', 'kg/m2', 'kg m-2 ', 'mm', 'mm of water equivalent', 'kg/m^2'], amount(1)),
    ...same(['m', 'm of water equivalent', 'm of water', 'metres of water equivalent'], amount(1000)),
    ...same(['kg m-2 s-1', 'mm s-1', 'mm/s'], rate(1)),
    ...same(['mm h-1', 'mm/h', 'mm hr-1', 'mm hour-1'], rate(1 / SECONDS_PER_HOUR)),
    ...same(['mm day-1', 'mm/day', 'mm d-1'], rate(1 / SECONDS_PER_DAY)),
    ...same(['m day-1', 'm/day', 'm d-1'], rate(1000 / SECONDS_PER_DAY)),
    ...same(['m s-1'], rate(1000)),
  },
  'W/m²': {
    ...same(['w m-2', 'w/m2', 'w/m²', 'w m-2 ', 'watt m-2'], rate(1)),
    ...same(['j m-2', 'j/m2', 'j/m²'], amount(1)),
    ...same(['kj m-2'], amount(1000)),
  },
  m: {
    ...same(['m', 'meter', 'metre', 'meters', 'metres', 'gpm', 'm asl', 'm a.s.l.'], value(1)),
    km: value(1000),
    ...same(['m2 s-2', 'm2/s2', 'm2s-2', 'j kg-1'], value(1 / STANDARD_GRAVITY)),
  },
  DU: {
    ...same(['du', 'dobson', 'dobson unit', 'dobson units'], value(1)),
    ...same(['kg m-2', 'kg/m2'], value(1 / KG_PER_M2_PER_DU)),
    ...same(['mol m-2', 'mole m-2'], value(1 / MOL_PER_M2_PER_DU)),
    // CF equivalent_thickness_at_stp_of_atmosphere_ozone_content: 1 DU = 10 µm.
    m: value(1e5),
  },
};

/** Mass concentrations: spellings of µg/m³ (micro sign U+00B5, Greek mu U+03BC, 'u'). */
const UG_PER_M3 = ['ug m-3', 'ug/m3', 'µg m-3', 'µg/m3', 'µg/m³', 'μg m-3', 'μg/m3', 'μg/m³', 'microgram m-3', 'micrograms m-3', 'ug m^-3'];

RULES['µg/m³'] = {
  ...same(UG_PER_M3, value(1)),
  ...same(['kg m-3', 'kg/m3'], value(1e9)),
  ...same(['mg m-3', 'mg/m3'], value(1e3)),
  ...same(['ng m-3', 'ng/m3'], value(1e-3)),
  // Mass mixing ratio → concentration: c = q · ρ_air (STANDARD_AIR_DENSITY_KG_M3), kg/m³ → µg/m³.
  ...same(['kg kg-1', 'kg/kg'], value(STANDARD_AIR_DENSITY_KG_M3 * 1e9)),
};
// Specific humidity (20CRv3 shum.2m).
RULES['kg/kg'] = {
  ...same(['kg kg-1', 'kg/kg', 'kg kg**-1', 'kg kg^-1'], value(1)),
  ...same(['g kg-1', 'g/kg'], value(1e-3)),
};
// An instantaneous irradiance (the satellite's 15-minute DSSF, uv-nrt/product.ts): a value, not a flux over a step.
RULES['W/m² (instant)'] = {
  ...same(['w m-2', 'w/m2', 'w/m²', 'watt m-2'], value(1)),
};
// Directions (wave direction "from", clockwise from north) and periods: marine/variables.ts.
RULES['°'] = {
  ...same(['degree', 'degrees', 'deg', '°', 'degree true', 'degrees true', 'degree_true', 'degrees_true', 'degree_north', 'degrees from north'], value(1)),
  ...same(['rad', 'radian', 'radians'], value(180 / Math.PI)),
};
RULES.s = {
  ...same(['s', 'sec', 'second', 'seconds'], value(1)),
};
// Volumetric soil water (ERA5 swvl1..4 'm**3 m**-3'): soil/variables.ts.
RULES['m³/m³'] = {
  ...same(['m3 m-3', 'm3/m3', 'm³/m³', 'm3 m-3 ', ...FRACTION], value(1)),
};
// Soil water of a layer, a state (ICON W_SO 'kg m**-2'), not an amount over a step: nwp-soil/variables.ts.
RULES['kg/m²'] = {
  ...same(['kg m-2', 'kg/m2', 'kg/m^2', 'mm'], value(1)),
};
RULES['grains/m³'] = {
  ...same(['grains/m3', 'grains m-3', 'grain m-3', 'grains/m³', 'grain/m3', 'm-3', '1/m3', 'number m-3'], value(1)),
};

function same(keys: readonly string[], rule: UnitRule): Record<string, UnitRule> {
  return Object.fromEntries(keys.map((k) => [k, rule]));
}

/**
 * Normalise a units string for lookup: lower case, `**`/`^` exponents
 * dropped ('m**2 s**-2' → 'm2 s-2'), `.`/`·` between symbols as a space,
 * runs of blanks collapsed.
 */
export function normaliseUnits(units: string): string {
  return units
    .trim()
    .toLowerCase()
    .replace(/\*\*/g, '')
    .replace(/\^/g, '')
    .replace(/(?<=[a-z])[.·](?=[a-z])/g, ' ')
    .replace(/\s+/g, ' ');
}

/**
 * The rule turning `sourceUnits` into `canonicalUnits`, or null when the
 * source unit is not a known unit of that quantity (the field is then
 * reported, never ingested with a guessed scale). Codes (WMO 4677) accept
 * any units string: a code table has no unit.
 */
export function unitRule(sourceUnits: string, canonicalUnits: string): UnitRule | null {
  if (canonicalUnits === 'WMO 4677') return value(1);
  const table = RULES[canonicalUnits];
  if (!table) return null;
  return table[normaliseUnits(sourceUnits)] ?? null;
}

/** Apply a 'value' rule in place (NaN stays NaN). */
export function applyValueRule(values: Float32Array, rule: { scale: number; offset: number }): Float32Array {
  if (rule.scale === 1 && rule.offset === 0) return values;
  for (let i = 0; i < values.length; i++) values[i] = values[i]! * rule.scale + rule.offset;
  return values;
}
