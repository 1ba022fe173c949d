/**
 * Physical bounds of the canonical variables, in their canonical units
 * (docs/architecture.md, "Canonical variables"): a value outside is not
 * weather but a wrong unit, scale or fill value. Bounds are the observed
 * extremes with room, from the WMO Archive of Weather and Climate Extremes
 * (wmo.asu.edu) unless another source is named. By unit, with entries by
 * variable where one unit holds quantities of different sizes.
 */

export type Bounds = readonly [lo: number, hi: number];

const BY_UNIT: Readonly<Record<string, Bounds>> = {
  // Air: −89.2 °C (Vostok, 21 Jul 1983) and 56.7 °C (Death Valley, 10 Jul 1913).
  '°C': [-90, 60],
  // Gust 113.3 m/s (Barrow Island, 10 Apr 1996); components of the wind alike.
  'm/s': [-120, 120],
  // Fractions in percent; half a point above for packed sources' rounding.
  '%': [0, 100.5],
  // 1825 mm in 24 h (Foc-Foc, La Réunion, 7–8 Jan 1966): no step holds more.
  mm: [0, 2000],
  // Shortwave: the solar constant 1361 W/m² (Kopp & Lean 2011, GRL 38) plus cloud enhancement;
  // downwelling longwave of a saturated 60 °C column stays under σT⁴ ≈ 700 W/m².
  'W/m²': [0, 1500],
  // CAMS surface concentrations: dust storms reach about 10⁴ µg/m³ (PM10, hourly).
  'µg/m³': [0, 50_000],
  // Seasonal pollen peaks stay below 10⁴ grains/m³ (daily means, European networks).
  'grains/m³': [0, 100_000],
  // Volumetric soil water: a fraction of the volume.
  'm³/m³': [0, 1],
  // Water in a soil layer (ICON W_SO), at most the layer's depth of water (≤ 1.5 m × 1000 kg/m³ here).
  'kg/m²': [0, 2000],
  // Wave periods: swell beyond 30 s is rare; the source's own valid range is 60 s.
  s: [0, 60],
  '°': [0, 360],
  // Total ozone: 73 DU (Antarctic hole, 1994, WMO Ozone Bulletin) to about 650 DU.
  DU: [50, 700],
  // Specific humidity: saturation at the record dew point of 35 °C is 0.036.
  'kg/kg': [0, 0.04],
  // Lapse rates: the autoconvective 34 K/km, and inversions of that size.
  'K/km': [-50, 50],
  'WMO 4677': [0, 99],
};

const BY_VARIABLE: Readonly<Record<string, Bounds>> = {
  // 870 hPa (Typhoon Tip, 12 Oct 1979) and 1083.8 hPa (Agata, 31 Dec 1968), plus the reduction over high ground.
  pressure_msl: [850, 1100],
  // Everest's summit is near 330 hPa.
  surface_pressure: [300, 1100],
  // Ground and skin: 93.9 °C at the ground (Furnace Creek, 15 Jul 1972).
  skin_temperature: [-90, 95],
  // Mean radiant temperature: tens of kelvin above the air in the sun, below it under a clear night sky.
  mean_radiant_temperature: [-120, 120],
  // Sea: the freezing point of sea water and the warmest seas (validRange of the marine table).
  sea_surface_temperature: [-3, 45],
  // Dead Sea shore −430 m, Everest 8849 m.
  elevation: [-500, 9000],
  // Significant wave height: 19 m measured (North Atlantic buoy, 4 Feb 2013).
  wave_height: [0, 30],
  // Net longwave is negative by day and night (the surface loses heat).
  net_longwave_radiation: [-500, 200],
  // Dimensionless ('1') quantities.
  snowfall_fraction: [0, 1],
  land_sea_mask: [0, 1],
  temperature_gradient_r2: [0, 1],
  // SARAH CAL: Heliosat's range, slightly below 0 and above 1 (CM SAF PUM SARAH-3).
  effective_cloud_albedo: [-0.5, 1.5],
  // k = GHI / clear-sky GHI: above 1 under cloud enhancement and low sun; the uv-nrt table's own range.
  clear_sky_index: [0, 3],
};

/** Soil temperatures share the ground's bounds. */
function soilBounds(variable: string): Bounds | undefined {
  return /^soil_temperature_/.test(variable) ? BY_VARIABLE.skin_temperature : undefined;
}

/** Bounds of `variable` in `units`, or undefined when none is known (test/ingest/gate checks every product has them). */
export function physicalBounds(variable: string, units: string): Bounds | undefined {
  return BY_VARIABLE[variable] ?? soilBounds(variable) ?? BY_UNIT[units];
}
