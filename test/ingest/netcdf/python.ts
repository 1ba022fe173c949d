/** Runs the reference scripts in fixtures/ with Debian's python3 (netCDF4, cftime, GDAL). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gridIndexOf } from '../../../geo/grid.js';
import type { SourceField } from '../../../ingest/field.js';

const PYTHON = '/usr/bin/python3';
const FIXTURES = join(import.meta.dirname, 'fixtures');

export function reference<T>(request: Record<string, unknown>): T {
  const out = execFileSync(PYTHON, [join(FIXTURES, 'reference.py'), JSON.stringify(request)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as T;
}

/** Generates the synthetic edge-case files into a fresh temp dir and returns it. */
export function makeSynthetic(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mp-nc-'));
  execFileSync(PYTHON, [join(FIXTURES, 'make_synthetic.py'), dir], { stdio: 'pipe' });
  return dir;
}

export interface Stats {
  count: number;
  nan: number;
  min: number;
  max: number;
  mean: number;
}

/** Value of the cell centred exactly at (lat, lon) in a reader field (throws when off-grid). */
export function cellValue(f: SourceField, latDeg: number, lonDeg: number): number | null {
  const ix = gridIndexOf(f.grid, latDeg, lonDeg);
  if (!ix) throw new Error(`(${latDeg}, ${lonDeg}) outside the grid`);
  const i = Math.round(ix.x);
  const j = Math.round(ix.y);
  if (Math.abs(ix.x - i) > 1e-6 || Math.abs(ix.y - j) > 1e-6) throw new Error(`(${latDeg}, ${lonDeg}) is not a cell centre`);
  const v = f.values[j * f.grid.nx + i]!;
  return Number.isNaN(v) ? null : v;
}

export function fieldStats(values: Float32Array): Stats {
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    count++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { count, nan: values.length - count, min, max, mean: sum / count };
}
