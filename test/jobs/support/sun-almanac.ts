/**
 * The Sun's elevation written apart from geo/ (the library's Meeus/NOAA
 * position), for tests that check what depends on it.
 */

/**
 * Sun elevation (°) by the Astronomical Almanac's approximate solar coordinates (USNO, ~1′ over 1950–2050):
 * D days from J2000.0, mean anomaly g, mean longitude q, ecliptic longitude L.
 */
export function sunElevationDeg(t: Date, lat: number, lon: number): number {
  const r = Math.PI / 180;
  const d = (t.getTime() - Date.UTC(2000, 0, 1, 12)) / 86_400_000;
  const g = (357.529 + 0.98560028 * d) * r;
  const l = (280.459 + 0.98564736 * d + 1.915 * Math.sin(g) + 0.02 * Math.sin(2 * g)) * r;
  const e = (23.439 - 0.00000036 * d) * r;
  const ra = Math.atan2(Math.cos(e) * Math.sin(l), Math.cos(l)) / r;
  const decl = Math.asin(Math.sin(e) * Math.sin(l));
  const ha = ((18.697374558 + 24.06570982441908 * d) * 15 + lon - ra) * r;
  return Math.asin(Math.sin(lat * r) * Math.sin(decl) + Math.cos(lat * r) * Math.cos(decl) * Math.cos(ha)) / r;
}
