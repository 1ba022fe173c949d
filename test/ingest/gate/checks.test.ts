/**
 * The gate's checks one by one where the end-to-end refusals
 * (./refusals.test.ts) do not reach: a NetCDF time axis with no records
 * (was "Cannot read properties of undefined (reading 'validMs')"), a
 * reanalysis in the future, sea-only variables judged on the sea cells,
 * and bounds for every stored variable of every product.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReadError } from '../../../ingest/field.js';
import { finiteFractionCheck, MIN_FINITE_FRACTION } from '../../../ingest/gate/finite-fraction.js';
import { GateError } from '../../../ingest/gate/gate.js';
import { physicalBounds } from '../../../ingest/gate/physical-ranges.js';
import { INDEX_VARIABLES } from '../../../ingest/indices/catalogue.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { PRODUCTS } from '../../../ingest/products/registry.js';
import type { GridDef } from '../../../geo/grid.js';
import { describeShared } from '../../support/shared-data.js';
import { gateFile } from './support.js';

describeShared('gate checks on files written by netCDF4-python', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-gate-checks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a time axis with no records is a ReadError saying so, not a JavaScript TypeError', async () => {
    const file = gateFile(dir, 'norecords');
    const err = await runIngest({ root: join(dir, 'r0'), product: 'nwp', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReadError);
    expect((err as Error).message).toBe(`${file}: t2m: its dimension 'time' has no records (length 0): the file holds no values for it`);
  });

  it('time-axis: a reanalysis year in the future is refused', async () => {
    // The valid file's three hourly steps, starting tomorrow.
    const start = Math.floor(Date.now() / 86_400_000 + 1) * 86_400;
    const file = gateFile(dir, 'valid', start);
    const err = await runIngest({ root: join(dir, 'r1'), product: 'reanalysis', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).checks).toEqual(['time-axis']);
    expect((err as Error).message).toMatch(/time-axis: last valid time \S+ is in the future: a reanalysis holds the past/);
  });
});

describe('finite-fraction: masked variables are judged on their own cells', () => {
  // 10 × 10 cells, the first 10 % sea: SST has values there only.
  const grid: GridDef = { kind: 'regular_ll', nx: 10, ny: 10, x0: 12, y0: 44, dx: 0.1, dy: 0.1 };
  const land = new Float32Array(100).fill(1);
  for (let c = 0; c < 10; c++) land[c] = 0;
  const sst = new Float32Array(100).fill(NaN);
  for (let c = 0; c < 10; c++) sst[c] = 15 + c / 10;
  const ctx = (lsm: Float32Array | null, values: Float32Array) => ({
    product: PRODUCTS.marine!,
    input: {
      product: 'marine', grid, times: [new Date(0)], source: { files: [] },
      variables: {
        sea_surface_temperature: { units: '°C', precision: 0.01, values: [values] },
        ...(lsm ? { land_sea_mask: { units: '1', precision: 0.01, values: [lsm], static: true } } : {}),
      },
    },
    fields: [], series: [], root: '/nonexistent', nowMs: 0,
  }) as unknown as Parameters<typeof finiteFractionCheck.run>[0];

  it('SST on every sea cell passes though only 10 % of the grid is sea', () => {
    expect(0.1).toBeLessThan(MIN_FINITE_FRACTION);
    expect(finiteFractionCheck.run(ctx(land, sst))).toEqual([]);
  });
  it('SST missing on most sea cells is refused', () => {
    const sparse = sst.map((v, c) => (c < 1 ? v : NaN));
    expect(finiteFractionCheck.run(ctx(land, sparse))).toEqual([
      { check: 'finite-fraction', message: 'sea_surface_temperature: 10.0% of its values on sea cells are finite (at least 20% needed)' },
    ]);
  });
  it('no sea cell at all is refused', () => {
    expect(finiteFractionCheck.run(ctx(new Float32Array(100).fill(1), sst))).toEqual([
      { check: 'finite-fraction', message: 'sea_surface_temperature: no sea cells in the domain to hold it' },
    ]);
  });
});

describe('physical-range: bounds for every stored variable', () => {
  it('every product variable and every derived index has bounds in its canonical unit', () => {
    const helpers = new Set(['nearest_sea_cell', 'nearest_land_cell']);
    const missing: string[] = [];
    for (const p of Object.values(PRODUCTS)) {
      for (const [name, spec] of Object.entries(p.variables)) if (!helpers.has(name) && !physicalBounds(name, spec.units)) missing.push(`${p.name}.${name} [${spec.units}]`);
    }
    for (const [name, spec] of Object.entries(INDEX_VARIABLES)) if (!physicalBounds(name, spec.units)) missing.push(`index ${name} [${spec.units}]`);
    expect(missing).toEqual([]);
  });
});
