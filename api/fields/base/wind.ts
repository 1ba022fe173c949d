/**
 * Wind speed and meteorological direction from the 10 m components.
 *
 * speed = √(u² + v²);  direction = atan2(−u, −v) in degrees, 0..360,
 * the direction the wind blows FROM, clockwise from north (WMO-No. 8, Part I
 * ch. 5; u eastward, v northward, as the canonical wind_u_10m / wind_v_10m).
 * The components are interpolated separately and combined afterwards, the
 * usual practice for vector fields.
 */
import { hypot2 } from '../../../science/hypot.js';

/** m/s → km/h. */
export const KMH_PER_MS = 3.6;

/** Below this speed the direction is undefined (calm), km/h; half the output step. */
export const CALM_KMH = 0.05;

export interface Wind {
  speedKmh: number;
  /** Degrees from which it blows, [0, 360); null when calm. */
  directionDeg: number | null;
}

/** @param uMs eastward component, m/s  @param vMs northward component, m/s */
export function windFromComponents(uMs: number, vMs: number): Wind {
  const speedKmh = hypot2(uMs, vMs) * KMH_PER_MS;
  if (!(speedKmh >= CALM_KMH)) return { speedKmh: Number.isFinite(speedKmh) ? speedKmh : NaN, directionDeg: null };
  const deg = (Math.atan2(-uMs, -vMs) * 180) / Math.PI;
  return { speedKmh, directionDeg: (deg + 360) % 360 };
}
