/**
 * When SEVIRI (Meteosat Second Generation at 0°) sees a place within a
 * 15-minute repeat cycle. The full disk is imaged south to north in about
 * 12 minutes of the cycle (Schmetz et al. 2002, "An introduction to
 * Meteosat Second Generation (MSG)", Bull. Amer. Meteor. Soc. 83, 977–992),
 * so a slot's pixels are not simultaneous: Italy is seen 10–11 minutes after
 * the slot starts. The line of a point comes from the geostationary
 * projection (CGMS LRIT/HRIT Global Specification, the normalized
 * geostationary projection): the satellite's elevation scan angle
 *
 *   y = atan(r3 / √(r1² + r2²)),   r1 = h − r·cos c·cos(λ − λ0),  r2 = −r·cos c·sin(λ − λ0),  r3 = r·sin c
 *
 * with c the geocentric latitude (tan c = (b²/a²)·tan φ), r the ellipsoid's
 * radius there, h = 42,164 km, λ0 = 0°; the full disk spans
 * y = ±3712/2 lines × 2¹⁶ / 781,648,343 rad (CFAC) ≈ ±8.92°.
 */

const DEG = Math.PI / 180;
/** Distance of the satellite from the Earth's centre, km (CGMS). */
const H_KM = 42_164;
/** WGS 84-like radii used by the CGMS specification, km. */
const R_EQ_KM = 6378.169;
const R_POL_KM = 6356.5838;
/** Half the full disk's scan angle: 1856 lines of 2¹⁶/CFAC rad each. */
const Y_MAX_RAD = (1856 * 65_536) / 781_648_343;
/** Imaging time of the full disk within the repeat cycle, s (Schmetz et al. 2002). */
const IMAGING_S = 12 * 60;

/**
 * Seconds after the slot's start at which SEVIRI at 0° scans the point
 * (0 at the disk's southern edge, 720 at its northern edge).
 *
 * @param latDeg geodetic latitude, degrees north (within the disk)
 * @param lonDeg longitude, degrees east
 */
export function seviriScanOffsetS(latDeg: number, lonDeg: number): number {
  const c = Math.atan(((R_POL_KM * R_POL_KM) / (R_EQ_KM * R_EQ_KM)) * Math.tan(latDeg * DEG));
  const r = R_POL_KM / Math.sqrt(1 - ((R_EQ_KM * R_EQ_KM - R_POL_KM * R_POL_KM) / (R_EQ_KM * R_EQ_KM)) * Math.cos(c) ** 2);
  const r1 = H_KM - r * Math.cos(c) * Math.cos(lonDeg * DEG);
  const r2 = -r * Math.cos(c) * Math.sin(lonDeg * DEG);
  const r3 = r * Math.sin(c);
  const y = Math.atan(r3 / Math.hypot(r1, r2));
  const fraction = Math.min(1, Math.max(0, (y + Y_MAX_RAD) / (2 * Y_MAX_RAD)));
  return fraction * IMAGING_S;
}
