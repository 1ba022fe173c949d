/**
 * Altitude correction of the 2 m temperature from the model's orography to
 * the point's own elevation (docs/architecture.md, read path):
 *
 *   T_point = T_grid + Γ · (z_grid − z_point),   Γ = 0.0065 K/m
 *
 * Γ is the lapse rate of the ICAO/ISO standard atmosphere (ISO 2533:1975,
 * troposphere 0–11 km), or −dT/dz fitted locally where the product stores
 * one (sm100's `temperature_gradient`: an inversion gives Γ < 0). z_grid is the NWP store's own `elevation` interpolated
 * at the point (the orography the model's temperature belongs to); z_point is
 * the caller's `alt` when given, else the `dem` product's elevation there.
 * With no grid elevation, or no point elevation, nothing is corrected: a
 * guessed elevation would be worse than the model's own value.
 *
 * Pure: no I/O. Humidity is kept consistent separately (./humidity.ts).
 */

import { STANDARD_GRADIENT_K_PER_KM } from '../../../science/lapse-rate.js';

/** Standard-atmosphere lapse rate, K/m (ISO 2533:1975). */
export const STANDARD_LAPSE_K_PER_M = 0.0065;

/** Standard-atmosphere gradient dT/dz, K/km (−6.5): the fitted gradient's own fallback. */
export { STANDARD_GRADIENT_K_PER_KM };

/** Where the point's elevation came from. */
export type PointElevationSource = 'alt' | 'dem';

export type AltitudeCorrection =
  | {
      applied: true;
      /** Model orography at the point, m. */
      gridElevationM: number;
      /** Elevation of the point, m. */
      pointElevationM: number;
      source: PointElevationSource;
      /** Temperature change applied, K (positive when the point is lower than the grid). */
      deltaK: number;
      /** dT/dz used, K/km (standard −6.5, or the product's fitted one). */
      gradientKPerKm: number;
    }
  | {
      applied: false;
      reason: 'no_grid_elevation' | 'no_point_elevation';
    }
  | {
      applied: false;
      /** No `alt`, and the grid is the finest elevation there is (sm100's 100 m cells also answer the DEM): nothing to correct. */
      reason: 'at_grid_elevation';
      gridElevationM: number;
    };

/**
 * Decide the correction for a point.
 *
 * @param gridElevationM model orography at the point, m (null: the store has none there)
 * @param altM the caller's altitude, m (undefined: not given)
 * @param demElevationM the DEM's elevation at the point, m (null: no DEM, or outside it)
 * @param opts.gradientKPerKm dT/dz, K/km (default standard −6.5; non-finite counts as absent)
 * @param opts.demIsGrid the DEM answering is the grid itself (sm100): without `alt`, no correction
 */
export function altitudeCorrection(
  gridElevationM: number | null,
  altM: number | undefined,
  demElevationM: number | null,
  opts: { gradientKPerKm?: number | null; demIsGrid?: boolean } = {},
): AltitudeCorrection {
  if (gridElevationM === null || !Number.isFinite(gridElevationM)) return { applied: false, reason: 'no_grid_elevation' };
  const hasAlt = altM !== undefined && Number.isFinite(altM);
  if (opts.demIsGrid && !hasAlt) return { applied: false, reason: 'at_grid_elevation', gridElevationM };
  let pointElevationM: number;
  let source: PointElevationSource;
  if (hasAlt) {
    pointElevationM = altM;
    source = 'alt';
  } else if (demElevationM !== null && Number.isFinite(demElevationM)) {
    pointElevationM = demElevationM;
    source = 'dem';
  } else {
    return { applied: false, reason: 'no_point_elevation' };
  }
  const g = opts.gradientKPerKm;
  const gradientKPerKm = g !== undefined && g !== null && Number.isFinite(g) ? g : STANDARD_GRADIENT_K_PER_KM;
  const deltaK = (gradientKPerKm / 1000) * (pointElevationM - gridElevationM);
  return { applied: true, gridElevationM, pointElevationM, source, deltaK, gradientKPerKm };
}

/** Apply a correction to a grid temperature, °C (null stays null). */
export function correctTemperature(gridTempC: number | null, correction: AltitudeCorrection): number | null {
  if (gridTempC === null || !Number.isFinite(gridTempC)) return null;
  return correction.applied ? gridTempC + correction.deltaK : gridTempC;
}
