/**
 * Product `cams`: air quality and pollen at the surface (docs/architecture.md, canonical
 * variables), µg/m³ and grains/m³.
 *
 * Source names:
 * - CAMS European regional (Atmosphere Data Store "cams-europe-air-quality-
 *   forecasts", NetCDF files of the ENSEMBLE and single models): `pm2p5_conc`,
 *   `pm10_conc`, `no2_conc`, `o3_conc`, `so2_conc`, `apg_conc` (alder),
 *   `bpg_conc` (birch), `gpg_conc` (grass), `mpg_conc` (mugwort), `opg_conc`
 *   (olive), `rwpg_conc` (ragweed), in µg/m3 and grains/m3 (CAMS Regional
 *   data documentation, variable table).
 * - CAMS global (EAC4 reanalysis, forecasts; ADS NetCDF by grib_to_netcdf and
 *   GRIB): `pm2p5`, `pm10`, `no2`, `go3`, `so2` with their ecCodes paramIds
 *   (210073, 210074, 210121, 210203, 210122). Surface concentrations in
 *   "ug m**-3" are taken as they are; mass mixing ratios (kg kg**-1) become
 *   µg/m³ with the standard air density (ingest/mapping/units.ts).
 * - CF standard names (CF standard name table v84): mass_concentration_of_…_in_air
 *   and, for mixing ratios, mass_fraction_of_…_in_air. CAMS Europe writes the
 *   PM names without "_particles" ("…_pm10_ambient_aerosol_in_air"): both are
 *   listed. Pollen has no CF standard name (the files say "Not Defined").
 *
 * Negative concentrations (numerical noise of the chemistry and of the
 * analysis increments) are raised to 0.
 */
import type { StoredVariableSpec } from '../spec.js';

const common = { aggregation: 'instant', interpolation: 'linear', mask: 'any', block: 'cams', min: 0 } as const;
const gas = { ...common, units: 'µg/m³', precision: 0.01 } as const;
const pollen = { ...common, units: 'grains/m³', precision: 0.1 } as const;

export const CAMS_VARIABLES = {
  pm2_5: {
    ...gas,
    longName: 'PM2.5 mass concentration at the surface', standardName: 'mass_concentration_of_pm2p5_ambient_aerosol_particles_in_air',
    names: ['pm2p5_conc', 'pm2p5', 'pm25_conc', 'pm25', 'pm2.5'],
    paramIds: [210073],
    standardNames: ['mass_concentration_of_pm2p5_ambient_aerosol_particles_in_air', 'mass_concentration_of_pm2p5_ambient_aerosol_in_air'],
  },
  pm10: {
    ...gas,
    longName: 'PM10 mass concentration at the surface', standardName: 'mass_concentration_of_pm10_ambient_aerosol_particles_in_air',
    names: ['pm10_conc', 'pm10'],
    paramIds: [210074],
    standardNames: ['mass_concentration_of_pm10_ambient_aerosol_particles_in_air', 'mass_concentration_of_pm10_ambient_aerosol_in_air'],
  },
  nitrogen_dioxide: {
    ...gas,
    longName: 'nitrogen dioxide mass concentration at the surface', standardName: 'mass_concentration_of_nitrogen_dioxide_in_air',
    names: ['no2_conc', 'no2'],
    paramIds: [210121],
    standardNames: ['mass_concentration_of_nitrogen_dioxide_in_air', 'mass_fraction_of_nitrogen_dioxide_in_air'],
  },
  ozone: {
    ...gas,
    longName: 'ozone mass concentration at the surface', standardName: 'mass_concentration_of_ozone_in_air',
    names: ['o3_conc', 'go3', 'o3'],
    paramIds: [210203],
    standardNames: ['mass_concentration_of_ozone_in_air', 'mass_fraction_of_ozone_in_air'],
  },
  sulphur_dioxide: {
    ...gas,
    longName: 'sulphur dioxide mass concentration at the surface', standardName: 'mass_concentration_of_sulfur_dioxide_in_air',
    names: ['so2_conc', 'so2'],
    paramIds: [210122],
    standardNames: ['mass_concentration_of_sulfur_dioxide_in_air', 'mass_fraction_of_sulfur_dioxide_in_air'],
  },
  alder_pollen: { ...pollen, longName: 'alder pollen grain concentration at the surface', names: ['apg_conc', 'apg'] },
  birch_pollen: { ...pollen, longName: 'birch pollen grain concentration at the surface', names: ['bpg_conc', 'bpg'] },
  grass_pollen: { ...pollen, longName: 'grass pollen grain concentration at the surface', names: ['gpg_conc', 'gpg'] },
  mugwort_pollen: { ...pollen, longName: 'mugwort pollen grain concentration at the surface', names: ['mpg_conc', 'mpg'] },
  olive_pollen: { ...pollen, longName: 'olive pollen grain concentration at the surface', names: ['opg_conc', 'opg'] },
  ragweed_pollen: { ...pollen, longName: 'ragweed pollen grain concentration at the surface', names: ['rwpg_conc', 'rwpg'] },
} as const satisfies Record<string, StoredVariableSpec>;

/** Canonical names of the five EAQI pollutants and six pollen species, as stored. */
export type CamsVariable = keyof typeof CAMS_VARIABLES;
