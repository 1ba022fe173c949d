/**
 * GRIB scanning mode → the normalised layout of geo/grid.ts (row-major [y][x],
 * x eastward, y northward).
 *
 * Reference: WMO Manual on Codes, FM 92 GRIB2 Code table 3.4 (and GRIB1 Code
 * table 8, whose first three bits are the same):
 *   bit 1 (0x80) iScansNegatively: points of a row run east → west;
 *   bit 2 (0x40) jScansPositively: rows run south → north;
 *   bit 3 (0x20) jPointsAreConsecutive: storage is column by column;
 *   bit 4 (0x10) alternativeRowScanning: adjacent rows (columns, when j is
 *                consecutive) scan in opposite directions — the first row
 *                follows bit 1, the second runs the other way, and so on.
 * Bits 5-7 describe staggered (offset) grids, which this reader rejects.
 */

export interface ScanningFlags {
  iScansNegatively: boolean;
  jScansPositively: boolean;
  jPointsAreConsecutive: boolean;
  alternativeRowScanning: boolean;
}

/** Flags from the GRIB scanning-mode octet (bits as in the table above). */
export function scanningFlagsFromOctet(octet: number): ScanningFlags {
  return {
    iScansNegatively: (octet & 0x80) !== 0,
    jScansPositively: (octet & 0x40) !== 0,
    jPointsAreConsecutive: (octet & 0x20) !== 0,
    alternativeRowScanning: (octet & 0x10) !== 0,
  };
}

/**
 * Reorder `stored` (values in the message's scanning order) into row-major
 * [y][x] with y northward and x eastward.
 *
 * @param nx number of points along a parallel (GRIB Ni)
 * @param ny number of points along a meridian (GRIB Nj)
 */
export function normaliseScanning(stored: ArrayLike<number>, nx: number, ny: number, flags: ScanningFlags): Float32Array {
  const n = nx * ny;
  if (stored.length !== n) throw new RangeError(`scanning: ${stored.length} values for a ${nx}×${ny} grid`);
  const out = new Float32Array(n);
  const { iScansNegatively: iNeg, jScansPositively: jPos, jPointsAreConsecutive: jCons, alternativeRowScanning: alt } = flags;
  if (!jCons) {
    for (let r = 0; r < ny; r++) {
      // Row r of the storage: its latitude index, and whether it runs west → east.
      const j = jPos ? r : ny - 1 - r;
      const eastward = !iNeg !== (alt && r % 2 === 1);
      const src = r * nx;
      const dst = j * nx;
      if (eastward) for (let c = 0; c < nx; c++) out[dst + c] = stored[src + c]!;
      else for (let c = 0; c < nx; c++) out[dst + nx - 1 - c] = stored[src + c]!;
    }
    return out;
  }
  for (let col = 0; col < nx; col++) {
    // Column col of the storage: its longitude index, and whether it runs south → north.
    const i = iNeg ? nx - 1 - col : col;
    const northward = jPos !== (alt && col % 2 === 1);
    const src = col * ny;
    if (northward) for (let c = 0; c < ny; c++) out[c * nx + i] = stored[src + c]!;
    else for (let c = 0; c < ny; c++) out[(ny - 1 - c) * nx + i] = stored[src + c]!;
  }
  return out;
}
