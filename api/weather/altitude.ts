/**
 * Altitude correction of the 2 m temperature from the model's orography to
 * the point's own elevation (DESIGN.md, read path):
 *
 *   T_point = T_grid + Γ · (z_grid − z_point),   Γ = 0.0065 K/m
 *
 * Γ is the lapse rate of the ICAO/ISO standard atmosphere (ISO 2533:1975,
 * troposphere 0–11 km). z_grid is the NWP store's own `elevation` interpolated
 * at the point (the orography the model's temperature belongs to); z_point is
 * the caller's `alt` when given, else the `dem` product's elevation there.
 * With no grid elevation, or no point elevation, nothing is corrected: a
 * guessed elevation would be worse than the model's own value.
 *
 * Pure: no I/O. Humidity is kept consistent separately (./humidity.ts).
 */

/** Standard-atmosphere lapse rate, K/m (ISO 2533:1975). */
export const STANDARD_LAPSE_K_PER_M = 0.0065;

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
    }
  | {
      applied: false;
      reason: 'no_grid_elevation' | 'no_point_elevation';
    };

/**
 * Decide the correction for a point.
 *
 * @param gridElevationM model orography at the point, m (null: the store has none there)
 * @param altM the caller's altitude, m (undefined: not given)
 * @param demElevationM the DEM's elevation at the point, m (null: no DEM, or outside it)
 */
export function altitudeCorrection(
  gridElevationM: number | null,
  altM: number | undefined,
  demElevationM: number | null,
): AltitudeCorrection {
  if (gridElevationM === null || !Number.isFinite(gridElevationM)) return { applied: false, reason: 'no_grid_elevation' };
  let pointElevationM: number;
  let source: PointElevationSource;
  if (altM !== undefined && Number.isFinite(altM)) {
    pointElevationM = altM;
    source = 'alt';
  } else if (demElevationM !== null && Number.isFinite(demElevationM)) {
    pointElevationM = demElevationM;
    source = 'dem';
  } else {
    return { applied: false, reason: 'no_point_elevation' };
  }
  const deltaK = STANDARD_LAPSE_K_PER_M * (gridElevationM - pointElevationM);
  return { applied: true, gridElevationM, pointElevationM, source, deltaK };
}

/** Apply a correction to a grid temperature, °C (null stays null). */
export function correctTemperature(gridTempC: number | null, correction: AltitudeCorrection): number | null {
  if (gridTempC === null || !Number.isFinite(gridTempC)) return null;
  return correction.applied ? gridTempC + correction.deltaK : gridTempC;
}
