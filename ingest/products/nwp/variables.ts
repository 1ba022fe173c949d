/**
 * Product `nwp`: the canonical NWP variables (docs/architecture.md, "Canonical variables") and the names the
 * producers give them.
 *
 * Sources: ecCodes parameter database (ECMWF IFS / ERA5 shortNames and
 * paramIds; DWD/COSMO local definitions used by ICON, ICON-2I and COSMO-2I:
 * ICON-2I's files carry centre 80, whose `cnmc` tables name T_2M `2t`,
 * TOT_PREC `tp`, VMAX_10M `vmax_10m`, WW `ww` but not ASWDIR_S/ASWDIFD_S),
 * the DWD ICON open-data variable list (upper-case names), ERA5/ERA5-Land
 * NetCDF names from the CDS, CMIP/CF names (tas, psl, ...). Every table entry
 * matches on its own key too, so a file already in canonical naming ingests.
 *
 * Units: the source's `units` attribute decides the conversion
 * (ingest/mapping/units.ts); names never imply a unit.
 *
 * Cache groups (`block`, tiles/read/block.ts): 'base' is what every weather.php
 * request reads (the Free fields), 'condition' what the condition is derived
 * from when the model gives no usable weather code (and the Developer
 * indices read), 'developer' the inputs and indices only Developer and
 * Business requests read.
 */
import type { StoredVariableSpec, VariableSpec } from '../spec.js';

export const NWP_VARIABLES = {
  temperature_2m: {
    units: '°C', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'base', heightM: 2,
    longName: '2 metre temperature', standardName: 'air_temperature',
    names: ['2t', 't2m', 't_2m', 'tas', 't2', 'tmp2m'],
    paramIds: [167],
    standardNames: ['air_temperature'],
  },
  dew_point_2m: {
    units: '°C', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'base', heightM: 2,
    longName: '2 metre dew point temperature', standardName: 'dew_point_temperature',
    names: ['2d', 'd2m', 'td_2m', 'td2m', 'tdps', 'dpt2m'],
    paramIds: [168],
    standardNames: ['dew_point_temperature'],
  },
  relative_humidity_2m: {
    units: '%', aggregation: 'instant', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'base', heightM: 2,
    longName: '2 metre relative humidity', standardName: 'relative_humidity',
    names: ['2r', 'r2', 'relhum_2m', 'rh', 'rh2m', 'hurs'],
    paramIds: [260242],
    standardNames: ['relative_humidity'],
  },
  pressure_msl: {
    units: 'hPa', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'base',
    longName: 'mean sea level pressure', standardName: 'air_pressure_at_mean_sea_level',
    names: ['msl', 'pmsl', 'prmsl', 'psl', 'mslp'],
    paramIds: [151, 260074, 500002],
    standardNames: ['air_pressure_at_mean_sea_level', 'air_pressure_at_sea_level'],
  },
  surface_pressure: {
    units: 'hPa', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'developer',
    longName: 'surface pressure', standardName: 'surface_air_pressure',
    names: ['sp', 'ps', 'pres_sfc'],
    paramIds: [134, 500000],
    standardNames: ['surface_air_pressure'],
  },
  wind_u_10m: {
    units: 'm/s', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'base', heightM: 10,
    longName: '10 metre U wind component', standardName: 'eastward_wind',
    names: ['10u', 'u10', 'u_10m', 'uas'],
    paramIds: [165],
    standardNames: ['eastward_wind', 'x_wind', 'grid_eastward_wind'],
    vector: { component: 'u', partner: 'wind_v_10m' },
  },
  wind_v_10m: {
    units: 'm/s', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'base', heightM: 10,
    longName: '10 metre V wind component', standardName: 'northward_wind',
    names: ['10v', 'v10', 'v_10m', 'vas'],
    paramIds: [166],
    standardNames: ['northward_wind', 'y_wind', 'grid_northward_wind'],
    vector: { component: 'v', partner: 'wind_u_10m' },
  },
  wind_gust_10m: {
    // ERA5 i10fg is instantaneous; 10fg / VMAX_10M are the maximum over the
    // step ending at the valid time: both are stored at the valid time.
    units: 'm/s', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'base', heightM: 10,
    longName: '10 metre wind gust', standardName: 'wind_speed_of_gust',
    names: ['10fg', 'i10fg', 'fg10', '10fg1', '10fg3', '10fg6', 'vmax_10m', 'gust', 'wsgsmax'],
    paramIds: [49, 228029, 228028, 123, 260065],
    standardNames: ['wind_speed_of_gust'],
  },
  cloud_cover: {
    units: '%', aggregation: 'instant', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'condition',
    longName: 'total cloud cover', standardName: 'cloud_area_fraction',
    names: ['tcc', 'clct', 'tcdc', 'clt'],
    paramIds: [164, 228164],
    standardNames: ['cloud_area_fraction'],
  },
  precipitation: {
    // Amount over the step ending at the valid time (mm = kg m-2).
    units: 'mm', aggregation: 'amount', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'condition', min: 0,
    longName: 'total precipitation over the preceding step', standardName: 'precipitation_amount',
    names: ['tp', 'tot_prec', 'apcp', 'pr'],
    paramIds: [228, 228228, 500041],
    standardNames: ['precipitation_amount', 'lwe_thickness_of_precipitation_amount', 'precipitation_flux'],
  },
  snowfall_fraction: {
    // Usually derived: snowfall amount / precipitation (nwp/complete.ts).
    units: '1', aggregation: 'instant', precision: 0.001, interpolation: 'linear', mask: 'any', block: 'condition',
    longName: 'fraction of the precipitation over the preceding step falling as snow',
    names: [],
  },
  shortwave_radiation: {
    units: 'W/m²', aggregation: 'mean', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'developer', min: 0,
    longName: 'surface downwelling shortwave radiation, mean over the preceding step',
    standardName: 'surface_downwelling_shortwave_flux_in_air',
    names: ['ssrd', 'rsds', 'dswrf'],
    paramIds: [169],
    standardNames: ['surface_downwelling_shortwave_flux_in_air'],
  },
  direct_radiation: {
    // On a horizontal surface (ERA5 fdir, ICON ASWDIR_S), not beam-normal (ERA5 dsrp).
    units: 'W/m²', aggregation: 'mean', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'developer', min: 0,
    longName: 'surface direct shortwave radiation on a horizontal plane, mean over the preceding step',
    standardName: 'surface_direct_downwelling_shortwave_flux_in_air',
    names: ['fdir', 'aswdir_s'],
    paramIds: [228021],
    // ICON's local parameter (DWD and ICON-2I, centre 80, whose ecCodes tables lack it): mean since the run start.
    gribParameters: { '0.4.198@edzw': 'W m-2', '0.4.198@cnmc': 'W m-2' },
    standardNames: ['surface_direct_downwelling_shortwave_flux_in_air'],
  },
  longwave_radiation: {
    units: 'W/m²', aggregation: 'mean', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'developer', min: 0,
    longName: 'surface downwelling longwave radiation, mean over the preceding step',
    standardName: 'surface_downwelling_longwave_flux_in_air',
    names: ['strd', 'alwd_s', 'rlds', 'dlwrf'],
    paramIds: [175],
    standardNames: ['surface_downwelling_longwave_flux_in_air'],
  },
  weather_code: {
    units: 'WMO 4677', aggregation: 'instant', precision: 1, interpolation: 'nearest', mask: 'any', block: 'base',
    longName: 'present weather (WMO code table 4677)',
    names: ['ww', 'wmo_code', 'weathercode'],
  },
  total_ozone: {
    units: 'DU', aggregation: 'instant', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'developer',
    longName: 'total column ozone', standardName: 'atmosphere_mass_content_of_ozone',
    names: ['tco3', 'to3', 'tozne', 'gtco3'],
    paramIds: [206],
    standardNames: ['atmosphere_mass_content_of_ozone', 'equivalent_thickness_at_stp_of_atmosphere_ozone_content'],
  },
  elevation: {
    // Model orography: height (m) or surface geopotential (m² s⁻², ÷ g).
    units: 'm', aggregation: 'static', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'base',
    longName: 'model surface altitude', standardName: 'surface_altitude',
    names: ['orog', 'hsurf', 'z', 'fis', 'hgt', 'oro'],
    paramIds: [228002, 129, 500007],
    standardNames: ['surface_altitude', 'surface_geopotential'],
    validRange: [-500, 9000],
  },
} as const satisfies Record<string, StoredVariableSpec>;

export type NwpVariable = keyof typeof NWP_VARIABLES;

/**
 * Inputs of derivations (nwp/complete.ts) that are not stored: ICON delivers
 * downward shortwave as direct + diffuse, ERA5/ICON deliver net fluxes, ERA5
 * snowfall is an amount, not a fraction.
 */
export const NWP_AUXILIARY = {
  snowfall_amount: {
    units: 'mm', aggregation: 'amount', precision: 0.01, interpolation: 'linear', min: 0,
    longName: 'snowfall water equivalent over the preceding step', standardName: 'snowfall_amount',
    names: ['sf', 'tot_snow', 'snowfall'],
    paramIds: [144, 228144],
    standardNames: ['snowfall_amount', 'lwe_thickness_of_snowfall_amount'],
  },
  diffuse_radiation: {
    units: 'W/m²', aggregation: 'mean', precision: 0.1, interpolation: 'linear', min: 0,
    longName: 'surface diffuse downwelling shortwave radiation', standardName: 'surface_diffuse_downwelling_shortwave_flux_in_air',
    names: ['aswdifd_s'],
    gribParameters: { '0.4.199@edzw': 'W m-2', '0.4.199@cnmc': 'W m-2' },
    standardNames: ['surface_diffuse_downwelling_shortwave_flux_in_air'],
  },
  net_shortwave_radiation: {
    units: 'W/m²', aggregation: 'mean', precision: 0.1, interpolation: 'linear',
    longName: 'surface net shortwave radiation', standardName: 'surface_net_downward_shortwave_flux',
    names: ['ssr', 'asob_s', 'nswrf', 'nswrs'],
    paramIds: [176],
    standardNames: ['surface_net_downward_shortwave_flux'],
  },
  net_longwave_radiation: {
    units: 'W/m²', aggregation: 'mean', precision: 0.1, interpolation: 'linear',
    longName: 'surface net longwave radiation', standardName: 'surface_net_downward_longwave_flux',
    names: ['str', 'athb_s', 'nlwrf', 'nlwrs'],
    paramIds: [177],
    standardNames: ['surface_net_downward_longwave_flux'],
  },
  surface_albedo: {
    units: '%', aggregation: 'instant', precision: 0.1, interpolation: 'linear',
    longName: 'surface shortwave albedo', standardName: 'surface_albedo',
    names: ['fal', 'alb_rad', 'al'],
    paramIds: [243],
    standardNames: ['surface_albedo'],
  },
  skin_temperature: {
    units: '°C', aggregation: 'instant', precision: 0.01, interpolation: 'linear',
    longName: 'surface (skin) temperature', standardName: 'surface_temperature',
    names: ['skt', 't_g'],
    paramIds: [235],
    standardNames: ['surface_temperature'],
  },
} as const satisfies Record<string, VariableSpec>;

export type NwpAuxiliary = keyof typeof NWP_AUXILIARY;
