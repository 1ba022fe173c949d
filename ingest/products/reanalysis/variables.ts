/**
 * Product `reanalysis`: the canonical variables a reanalysis carries
 * (docs/architecture.md, "Canonical variables") and the names its sources give them.
 *
 * Sources: ERA5 as the Climate Data Store delivers it (GRIB shortNames and
 * paramIds, NetCDF names t2m/d2m/msl/u10/v10/i10fg/tcc/tp/ssrd/z) and as
 * ARCO-ERA5 names it (2m_temperature, ...); ERA5-Land (rh); NOAA-CIRES-DOE
 * 20CRv3 as NOAA PSL publishes it (air.2m → `air`, prmsl, uwnd.10m → `uwnd`,
 * vwnd.10m → `vwnd`, rhum.2m → `rhum`, shum.2m → `shum`, hgt.sfc → `hgt`). A period lacks what
 * its source does not carry (20CRv3: gust, and here cloud, precipitation,
 * radiation): those stay absent from the year's store and answer null.
 *
 * The entries are the nwp table's (same units, precision, read rules), with
 * the reanalysis names added, so a value means the same whichever product
 * answers.
 */
import { NWP_VARIABLES } from '../nwp/variables.js';
import type { StoredVariableSpec } from '../spec.js';

const N = NWP_VARIABLES;
const withNames = <S extends StoredVariableSpec>(spec: S, extra: readonly string[]): S => ({ ...spec, names: [...spec.names, ...extra] });

export const REANALYSIS_VARIABLES = {
  temperature_2m: withNames(N.temperature_2m, ['air', '2m_temperature']),
  dew_point_2m: withNames(N.dew_point_2m, ['2m_dewpoint_temperature']),
  relative_humidity_2m: withNames(N.relative_humidity_2m, ['rhum']),
  pressure_msl: withNames(N.pressure_msl, ['mean_sea_level_pressure']),
  wind_u_10m: withNames(N.wind_u_10m, ['uwnd', '10m_u_component_of_wind']),
  wind_v_10m: withNames(N.wind_v_10m, ['vwnd', '10m_v_component_of_wind']),
  wind_gust_10m: withNames(N.wind_gust_10m, ['instantaneous_10m_wind_gust']),
  cloud_cover: withNames(N.cloud_cover, ['tcdc', 'total_cloud_cover']),
  precipitation: withNames(N.precipitation, ['total_precipitation']),
  shortwave_radiation: withNames(N.shortwave_radiation, ['surface_solar_radiation_downwards']),
  // With these two (ERA5 fdir, strd) the precomputed indices (UTCI, WBGT, ET0) exist for ERA5 years.
  direct_radiation: withNames(N.direct_radiation, ['total_sky_direct_solar_radiation_at_surface']),
  longwave_radiation: withNames(N.longwave_radiation, ['surface_thermal_radiation_downwards']),
  elevation: withNames(N.elevation, ['geopotential']),
  // 20CRv3 shum.2m: kept (not only used) so a year whose files arrive in several runs can still derive RH (./complete.ts).
  specific_humidity_2m: {
    units: 'kg/kg', aggregation: 'instant', precision: 0.00001, interpolation: 'linear', mask: 'any', block: 'developer', heightM: 2,
    longName: '2 metre specific humidity', standardName: 'specific_humidity',
    names: ['shum', 'huss', 'q2m', '2sh'],
    standardNames: ['specific_humidity'],
  },
} as const satisfies Record<string, StoredVariableSpec>;

export type ReanalysisVariable = keyof typeof REANALYSIS_VARIABLES;
