/**
 * CAMS global (EAC4) quantities as mass mixing ratios (kg/kg) and mass
 * densities (kg/m³), in a file written by netCDF4-python in the layout of an
 * ADS/grib_to_netcdf EAC4 download (fixtures/make_eac4_mmr.py; no such file
 * exists offline): ingested, they are µg/m³, the mixing ratios through the
 * ISA sea-level air density 1.2250 kg/m³ (ISO 2533:1975).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../../ingest/pipeline.js';
import type { IngestReport } from '../../../ingest/ingest-report.js';
import { TileStore } from '../../../tiles/read/reader.js';

const PY = '/usr/bin/python3';
const ISA_DENSITY = 1.225; // kg/m³, ICAO standard atmosphere at sea level (published table value)

describe('cams: EAC4 mixing ratios and mass densities → µg/m³', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-eac4-mmr-'));
  const file = join(dir, 'eac4-mmr.nc');
  const root = join(dir, 'data');
  let report: IngestReport;
  beforeAll(async () => {
    execFileSync(PY, [join(import.meta.dirname, 'fixtures', 'make_eac4_mmr.py'), file]);
    report = await runIngest({ root, product: 'cams', files: [file] });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('matches go3/no2/so2 (kg kg**-1) and pm2p5/pm10 (kg m**-3)', () => {
    expect(report.variables.sort()).toEqual(['nitrogen_dioxide', 'ozone', 'pm10', 'pm2_5', 'sulphur_dioxide']);
    expect(report.skipped).toEqual([]);
  });

  it('every cell equals the file value × ρ_ISA × 1e9 (mixing ratios) or × 1e9 (densities)', async () => {
    const ref = JSON.parse(execFileSync(PY, ['-c', `
import json, sys
from netCDF4 import Dataset
d = Dataset(sys.argv[1])
print(json.dumps({n: d[n][:].astype("f8").tolist() for n in ["go3", "no2", "so2", "pm2p5", "pm10"]}))`, file], { encoding: 'utf8' })) as Record<string, number[][][]>;
    const store = new TileStore(root);
    const lats = [46.5, 45.75, 45.0];
    const lons = [9.0, 9.75, 10.5, 11.25];
    const times = [Date.UTC(2020, 6, 21, 0), Date.UTC(2020, 6, 21, 3)];
    const pairs = [['ozone', 'go3', ISA_DENSITY * 1e9], ['nitrogen_dioxide', 'no2', ISA_DENSITY * 1e9], ['sulphur_dioxide', 'so2', ISA_DENSITY * 1e9], ['pm2_5', 'pm2p5', 1e9], ['pm10', 'pm10', 1e9]] as const;
    for (const [k, t] of times.entries()) {
      for (const [a, la] of lats.entries()) {
        for (const [o, lo] of lons.entries()) {
          const s = await store.sample('cams', la, lo, t);
          for (const [variable, name, factor] of pairs) {
            const want = ref[name]![k]![a]![o]! * factor;
            expect(Math.abs(s.values[variable]! - want), `${variable} ${la},${lo}`).toBeLessThanOrEqual(Math.max(1e-3 * want, 0.005 + 1e-9));
          }
        }
      }
    }
  });
});
