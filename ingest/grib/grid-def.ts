/**
 * GRIB grid keys (as ecCodes reports them) → a normalised GridDef plus the
 * scanning flags needed to reorder the values. Pure; throws a plain Error
 * with the reason, which the reader wraps into a ReadError naming the file.
 *
 * Regular (GRIB2 template 3.0, GRIB1 type 0) and rotated (3.1, type 10)
 * lat/lon grids only: Gaussian, reduced, Lambert, polar stereographic,
 * spectral... are rejected with their ecCodes gridType.
 */
import { wrapLon, type GridDef } from '../../geo/grid.js';
import type { GribMeta } from './eccodes-bridge.js';
import { scanningFlagsFromOctet, type ScanningFlags } from './scanning.js';

export interface GribGrid {
  grid: GridDef;
  scanning: ScanningFlags;
}

/** GRIB2 scanning-mode bits 5-7 (0x08, 0x04, 0x02): offset rows/columns of staggered grids. */
const STAGGER_BITS = 0x0e;

/** Strip float noise from millidegree/microdegree arithmetic (356.2 − 360 = −3.8000000000000114). */
function clean(deg: number): number {
  return Math.round(deg * 1e10) / 1e10;
}

function need(value: number | null, key: string): number {
  if (value === null || !Number.isFinite(value)) throw new Error(`GRIB key ${key} is missing`);
  return value;
}

function flag(value: number | null, fallback: boolean): boolean {
  return value === null ? fallback : value !== 0;
}

/**
 * Spacing from the first/last points, which are stored to the same precision
 * as the increment but spread its rounding over the whole grid (GRIB1 stores
 * 1/12° as 0.083); checked against the stated increment when there is one.
 */
function spacing(spanDeg: number, n: number, incrementDeg: number | null, axis: string): number {
  if (n === 1) {
    if (incrementDeg === null || !(incrementDeg > 0)) throw new Error(`single-point ${axis} axis without an increment`);
    return incrementDeg;
  }
  const d = spanDeg / (n - 1);
  if (!(d > 0)) throw new Error(`degenerate ${axis} axis (span ${spanDeg}° over ${n} points)`);
  if (incrementDeg !== null && incrementDeg > 0 && Math.abs(d - incrementDeg) > Math.max(0.01 * incrementDeg, 1e-3)) {
    throw new Error(`${axis} increment ${incrementDeg}° disagrees with first/last points (${d}° over ${n} points)`);
  }
  return d;
}

export function gribGrid(meta: GribMeta): GribGrid {
  const gridType = meta.gridType ?? 'unknown';
  if (gridType !== 'regular_ll' && gridType !== 'rotated_ll') {
    throw new Error(`unsupported grid type '${gridType}' (only regular and rotated lat/lon grids are read)`);
  }
  const nx = need(meta.Ni, 'Ni');
  const ny = need(meta.Nj, 'Nj');
  if (!Number.isInteger(nx) || !Number.isInteger(ny) || nx < 1 || ny < 1) throw new Error(`bad grid size ${nx}×${ny}`);
  if (meta.numberOfDataPoints !== null && meta.numberOfDataPoints !== nx * ny) {
    throw new Error(`numberOfDataPoints ${meta.numberOfDataPoints} is not Ni×Nj = ${nx * ny}`);
  }

  const octet = meta.scanningMode ?? 0;
  if (meta.edition === 2 && (octet & STAGGER_BITS) !== 0) {
    throw new Error(`unsupported scanning mode ${octet} (staggered/offset grid)`);
  }
  const fromOctet = scanningFlagsFromOctet(octet);
  const scanning: ScanningFlags = {
    iScansNegatively: flag(meta.iScansNegatively, fromOctet.iScansNegatively),
    jScansPositively: flag(meta.jScansPositively, fromOctet.jScansPositively),
    jPointsAreConsecutive: flag(meta.jPointsAreConsecutive, fromOctet.jPointsAreConsecutive),
    alternativeRowScanning: flag(meta.alternativeRowScanning, fromOctet.alternativeRowScanning),
  };

  const latFirst = need(meta.latitudeOfFirstGridPointInDegrees, 'latitudeOfFirstGridPointInDegrees');
  const latLast = need(meta.latitudeOfLastGridPointInDegrees, 'latitudeOfLastGridPointInDegrees');
  const lonFirst = need(meta.longitudeOfFirstGridPointInDegrees, 'longitudeOfFirstGridPointInDegrees');
  const lonLast = need(meta.longitudeOfLastGridPointInDegrees, 'longitudeOfLastGridPointInDegrees');

  if (ny > 1 && (latLast > latFirst) !== scanning.jScansPositively) {
    throw new Error(
      `jScansPositively=${Number(scanning.jScansPositively)} contradicts first/last latitudes ${latFirst}/${latLast}`,
    );
  }
  const south = Math.min(latFirst, latLast);
  const dy = spacing(Math.abs(latLast - latFirst), ny, meta.jDirectionIncrementInDegrees, 'latitude');

  // Longitudes may come as 0..360 or -180..180 (COSMO-2I: 356.2 in GRIB2, -3.8 in GRIB1).
  const west = scanning.iScansNegatively ? lonLast : lonFirst;
  const east = scanning.iScansNegatively ? lonFirst : lonLast;
  let span = (((east - west) % 360) + 360) % 360;
  if (span === 0 && nx > 1) span = 360;
  const dx = spacing(span, nx, meta.iDirectionIncrementInDegrees, 'longitude');
  if (dx * (nx - 1) > 360 + 1e-6) throw new Error(`grid spans more than 360° of longitude`);

  const base = { nx, ny, x0: clean(wrapLon(west)), y0: clean(south), dx: clean(dx), dy: clean(dy) };
  if (gridType === 'regular_ll') return { grid: { kind: 'regular_ll', ...base }, scanning };
  return {
    grid: {
      kind: 'rotated_ll',
      ...base,
      southPoleLat: need(meta.latitudeOfSouthernPoleInDegrees, 'latitudeOfSouthernPoleInDegrees'),
      southPoleLon: clean(wrapLon(need(meta.longitudeOfSouthernPoleInDegrees, 'longitudeOfSouthernPoleInDegrees'))),
      angle: meta.angleOfRotation ?? meta.angleOfRotationInDegrees ?? 0,
    },
    scanning,
  };
}
