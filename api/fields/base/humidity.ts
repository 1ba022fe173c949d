/**
 * Dew point and relative humidity at the point, consistent with the
 * altitude-corrected temperature the response reports.
 *
 * Rule: keep the relative humidity of the grid, recompute the dew point from
 * the corrected temperature (Magnus inverse, science/ dewPoint).
 *
 * Why RH and not the dew point or the mixing ratio: observed vapour pressure
 * falls with height roughly as e(z) = e0·exp(−λz) with λ ≈ 0.33–0.42 km⁻¹
 * (Kunkel 1989, J. Climate 2:656–669; the coefficients MicroMet uses, Liston &
 * Elder 2006, J. Hydrometeor. 7:217–234), while along the 6.5 K/km lapse the
 * saturation pressure falls at a·b/(b+T)²·Γ ≈ 0.40–0.51 km⁻¹ (Magnus, 20 to
 * −10 °C). The two nearly cancel, so RH is close to height-invariant over a
 * typical correction of a few hundred metres (a few % relative per 300 m),
 * whereas keeping the vapour pressure (dew point fixed) would change RH by
 * about 50 % relative per 1000 m. The dew point thus moves almost in step
 * with the temperature, and Td ≤ T holds by construction.
 *
 * Source of the grid RH: when the product has the dew point, RH comes from the
 * interpolated temperature and dew point (Magnus, so with no correction the
 * dew point is returned unchanged); else from its relative humidity; when the
 * product has neither, both fields are null.
 */
import { dewPoint, relativeHumidity } from '../../../science/index.js';

export interface GridMoisture {
  /** Interpolated grid temperature, °C. */
  gridTempC: number | null;
  /** Interpolated grid dew point, °C. */
  gridDewPointC: number | null;
  /** Interpolated grid relative humidity, %. */
  gridRhPct: number | null;
}

export interface PointMoisture {
  /** °C, null when it cannot be computed. */
  dewPointC: number | null;
  /** %, 0..100, null when it cannot be computed. */
  humidityPct: number | null;
}

const finite = (v: number | null): v is number => v !== null && Number.isFinite(v);

/**
 * @param grid interpolated grid values (any of them may be null)
 * @param pointTempC altitude-corrected temperature, °C (null: the product has no temperature)
 */
export function moistureAtPoint(grid: GridMoisture, pointTempC: number | null): PointMoisture {
  const { gridTempC, gridDewPointC, gridRhPct } = grid;
  let rh: number | null = null;
  if (finite(gridDewPointC) && finite(gridTempC)) rh = relativeHumidity(gridTempC, gridDewPointC);
  else if (finite(gridRhPct)) rh = Math.min(100, Math.max(0, gridRhPct));

  if (!finite(pointTempC)) {
    // No temperature to correct against: report the grid's own values.
    return { dewPointC: finite(gridDewPointC) ? gridDewPointC : null, humidityPct: rh };
  }
  if (rh === null) return { dewPointC: null, humidityPct: null };
  // RH 0 has no finite dew point (no vapour at all): report it as unknown.
  const td = dewPoint(pointTempC, rh);
  return { dewPointC: Number.isFinite(td) ? td : null, humidityPct: rh };
}
