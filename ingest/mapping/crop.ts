/**
 * Crop a grid to the service domain plus a margin, so that a global file
 * (ERA5 gust, 1440×721) makes a store of Italy only (~70×60 cells). Rotated
 * grids are cropped by the bounding box of the domain in rotated coordinates
 * (the domain's edges traced through the rotation), which keeps every cell
 * the domain touches.
 */
import { toGridCoords, wrapLon, type GridDef } from '../../geo/grid.js';
import { CROP_MARGIN_CELLS, SERVICE_DOMAIN, type Domain } from './domain.js';

/** Cells [i0, i0+nx) × [j0, j0+ny); on a global grid i may wrap past the last column. */
export interface CropWindow {
  i0: number;
  j0: number;
  nx: number;
  ny: number;
}

/** True when the grid's columns go once around the Earth (x wraps). */
export function isGlobalInX(grid: GridDef): boolean {
  return grid.kind === 'regular_ll' && Math.abs(grid.nx * grid.dx - 360) < grid.dx / 2;
}

/** The window of `grid` covering `domain` plus `margin` cells, or null when they do not overlap. */
export function cropWindow(grid: GridDef, domain: Domain = SERVICE_DOMAIN, margin = CROP_MARGIN_CELLS): CropWindow | null {
  const box = grid.kind === 'regular_ll' ? { xMin: domain.lonMin, xMax: domain.lonMax, yMin: domain.latMin, yMax: domain.latMax } : rotatedBox(grid, domain);

  let iMin: number;
  let iMax: number;
  if (isGlobalInX(grid)) {
    const offset = (((box.xMin - grid.x0) % 360) + 360) % 360;
    iMin = Math.floor(offset / grid.dx) - margin;
    iMax = Math.ceil((offset + (box.xMax - box.xMin)) / grid.dx) + margin;
    if (iMax - iMin + 1 >= grid.nx) {
      iMin = 0;
      iMax = grid.nx - 1;
    }
  } else {
    // x0 is in -180..180 and so is the domain; a grid east of 180 (x0 + n·dx > 180) still compares directly.
    const fMin = (box.xMin - grid.x0) / grid.dx;
    const fMax = (box.xMax - grid.x0) / grid.dx;
    if (fMax < -0.5 || fMin > grid.nx - 0.5) return null;
    iMin = Math.max(0, Math.floor(fMin) - margin);
    iMax = Math.min(grid.nx - 1, Math.ceil(fMax) + margin);
  }
  const gMin = (box.yMin - grid.y0) / grid.dy;
  const gMax = (box.yMax - grid.y0) / grid.dy;
  if (gMax < -0.5 || gMin > grid.ny - 0.5) return null;
  const jMin = Math.max(0, Math.floor(gMin) - margin);
  const jMax = Math.min(grid.ny - 1, Math.ceil(gMax) + margin);
  return { i0: iMin, j0: jMin, nx: iMax - iMin + 1, ny: jMax - jMin + 1 };
}

/** True when the window is the whole grid (nothing to crop). */
export function isWholeGrid(grid: GridDef, w: CropWindow): boolean {
  return w.i0 === 0 && w.j0 === 0 && w.nx === grid.nx && w.ny === grid.ny;
}

/** The grid definition of a window. */
export function cropGrid(grid: GridDef, w: CropWindow): GridDef {
  const x0 = grid.x0 + w.i0 * grid.dx;
  return {
    ...grid,
    nx: w.nx,
    ny: w.ny,
    x0: grid.kind === 'regular_ll' ? wrapLon(x0) : x0,
    y0: grid.y0 + w.j0 * grid.dy,
  };
}

/** Copy the window's values out of a row-major [y][x] array (columns wrap on global grids). */
export function cropValues(values: Float32Array, grid: GridDef, w: CropWindow): Float32Array {
  const out = new Float32Array(w.nx * w.ny);
  const wraps = w.i0 < 0 || w.i0 + w.nx > grid.nx;
  for (let j = 0; j < w.ny; j++) {
    const row = (w.j0 + j) * grid.nx;
    if (!wraps) {
      out.set(values.subarray(row + w.i0, row + w.i0 + w.nx), j * w.nx);
      continue;
    }
    for (let i = 0; i < w.nx; i++) {
      const src = (((w.i0 + i) % grid.nx) + grid.nx) % grid.nx;
      out[j * w.nx + i] = values[row + src]!;
    }
  }
  return out;
}

/** Bounding box, in rotated coordinates, of the domain's outline (edges sampled every 0.1°). */
function rotatedBox(grid: GridDef, d: Domain): { xMin: number; xMax: number; yMin: number; yMax: number } {
  const box = { xMin: Infinity, xMax: -Infinity, yMin: Infinity, yMax: -Infinity };
  const add = (lat: number, lon: number) => {
    const c = toGridCoords(grid, lat, lon);
    box.xMin = Math.min(box.xMin, c.x);
    box.xMax = Math.max(box.xMax, c.x);
    box.yMin = Math.min(box.yMin, c.y);
    box.yMax = Math.max(box.yMax, c.y);
  };
  const step = 0.1;
  for (let lon = d.lonMin; lon <= d.lonMax + 1e-9; lon += step) {
    add(d.latMin, lon);
    add(d.latMax, lon);
  }
  for (let lat = d.latMin; lat <= d.latMax + 1e-9; lat += step) {
    add(lat, d.lonMin);
    add(lat, d.lonMax);
  }
  return box;
}
