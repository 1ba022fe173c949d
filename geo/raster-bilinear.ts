/**
 * Bilinear interpolation inside a row-major raster, missing values dropped:
 * the rule the point reader applies (tiles/read/point-rules.ts), for code
 * that samples a raster before it is a store (the DEM of sm100, a projected
 * GeoTIFF resampled onto lat/lon).
 */

/**
 * Bilinear value at fractional pixel index (fx, fy) of a row-major array,
 * pixel (0, 0) centred at index 0: no-data (NaN) neighbours dropped and the
 * weights of the others renormalised; NaN beyond half a pixel outside.
 */
export function bilinearAt(values: ArrayLike<number>, nx: number, ny: number, fx: number, fy: number): number {
  if (!(fx >= -0.5 && fy >= -0.5 && fx <= nx - 0.5 && fy <= ny - 0.5)) return NaN;
  const i0 = Math.floor(fx);
  const j0 = Math.floor(fy);
  const ax = fx - i0;
  const ay = fy - j0;
  let sum = 0;
  let wsum = 0;
  for (let k = 0; k < 4; k++) {
    const i = i0 + (k & 1);
    const j = j0 + (k >> 1);
    if (i < 0 || j < 0 || i >= nx || j >= ny) continue;
    const w = (k & 1 ? ax : 1 - ax) * (k >> 1 ? ay : 1 - ay);
    const v = values[j * nx + i]!;
    if (!(w > 0) || v !== v) continue;
    sum += w * v;
    wsum += w;
  }
  return wsum > 0 ? sum / wsum : NaN;
}
