/**
 * Product `marine`: sea surface temperature and waves (docs/architecture.md, canonical
 * variables), sea cells only (`mask: 'sea'`, tiles/masks.ts).
 *
 * Source names:
 * - Copernicus Marine Mediterranean SST L4 (SST_MED_SST_L4_NRT/REP_
 *   OBSERVATIONS_010_004/010_021, GHRSST GDS 2.0 NetCDF4): `analysed_sst`,
 *   int16 packed kelvin (scale 0.01, offset 273.15), _FillValue over land;
 *   CF standard_name sea_surface_temperature (or …_foundation_temperature).
 * - Copernicus Marine MEDSEA wave analysis and forecast
 *   (MEDSEA_ANALYSISFORECAST_WAV_006_017, Product User Manual, variable
 *   table): `VHM0` spectral significant wave height (m), `VMDR` mean wave
 *   direction from (degree), `VTM10` spectral moments (−1,0) mean period (s),
 *   `VTPK` peak period (s).
 * - Copernicus Marine MED physics analysis and forecast
 *   (MEDSEA_ANALYSISFORECAST_PHY_006_013, dataset
 *   cmems_mod_med_phy-tem_anfc_4.2km-2D_PT1H-m): `thetao`, sea water
 *   potential temperature (degrees_C) of the model's top level (1.0182 m,
 *   a depth dimension of size 1), hourly means: the sea surface value of an
 *   ocean model, read where no deeper than `topDepthM`.
 * - ECMWF WAM (ecCodes parameter database, table 140): `swh` 140229
 *   significant height of combined wind waves and swell (m), `mwd` 140230
 *   mean wave direction (degree true, from), `mwp` 140232 mean wave period
 *   (s, from the inverse-frequency moment, the same Tm−1,0 as VTM10),
 *   `pp1d` 140231 peak wave period (s). ECMWF SST `sst` 34 (K).
 *
 * Direction is stored with the `nearest` rule: a bilinear mean of 350° and
 * 10° would be 180°. Mean and peak periods are different quantities and are
 * kept apart (`wave_period`, `wave_peak_period`), never substituted.
 */
import type { StoredVariableSpec } from '../spec.js';

const sea = { aggregation: 'instant', mask: 'sea', block: 'marine' } as const;

export const MARINE_VARIABLES = {
  sea_surface_temperature: {
    ...sea,
    units: '°C', precision: 0.01, interpolation: 'linear',
    longName: 'sea surface temperature', standardName: 'sea_surface_temperature',
    names: ['analysed_sst', 'sst', 'sea_surface_temperature', 'tos', 'thetao'],
    paramIds: [34],
    standardNames: ['sea_surface_temperature', 'sea_surface_foundation_temperature', 'sea_surface_subskin_temperature', 'sea_water_potential_temperature'],
    // An ocean model's top level (MED physics: 1.0182 m; the next, 3.17 m, is not the surface).
    topDepthM: 2,
    // GHRSST valid_min/valid_max of analysed_sst (−300..4500 × 0.01 K + 273.15) in °C.
    validRange: [-3, 45],
  },
  wave_height: {
    ...sea,
    units: 'm', precision: 0.01, interpolation: 'linear',
    longName: 'significant height of wind waves and swell', standardName: 'sea_surface_wave_significant_height',
    names: ['VHM0', 'swh', 'hs', 'wave_height'],
    paramIds: [140229],
    standardNames: ['sea_surface_wave_significant_height'],
    // Anything outside is a fill value (GRIB 9999 over land when no bitmap); packing noise below 0 is raised to 0, not dropped.
    validRange: [-1, 30],
    min: 0,
  },
  wave_direction: {
    ...sea,
    units: '°', precision: 0.1, interpolation: 'nearest',
    longName: 'mean wave direction (from, clockwise from north)', standardName: 'sea_surface_wave_from_direction',
    names: ['VMDR', 'mwd', 'dirm', 'wave_direction'],
    paramIds: [140230],
    standardNames: ['sea_surface_wave_from_direction'],
    validRange: [0, 360],
  },
  wave_period: {
    ...sea,
    units: 's', precision: 0.01, interpolation: 'linear',
    longName: 'mean wave period Tm-1,0', standardName: 'sea_surface_wave_mean_period_from_variance_spectral_density_inverse_frequency_moment',
    names: ['VTM10', 'mwp', 'tm10', 'wave_period'],
    paramIds: [140232],
    standardNames: ['sea_surface_wave_mean_period_from_variance_spectral_density_inverse_frequency_moment'],
    validRange: [-1, 60],
    min: 0,
  },
  wave_peak_period: {
    ...sea,
    units: 's', precision: 0.01, interpolation: 'linear',
    longName: 'peak wave period', standardName: 'sea_surface_wave_period_at_variance_spectral_density_maximum',
    names: ['VTPK', 'pp1d', 'wave_peak_period'],
    paramIds: [140231],
    standardNames: ['sea_surface_wave_period_at_variance_spectral_density_maximum'],
    validRange: [-1, 60],
    min: 0,
  },
} as const satisfies Record<string, StoredVariableSpec>;

/** Canonical names of the stored marine variables. */
export type MarineVariable = keyof typeof MARINE_VARIABLES;
