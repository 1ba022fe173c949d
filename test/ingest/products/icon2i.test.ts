/**
 * ICON-2I into the nwp product: one GRIB2 per variable holding every step,
 * as MeteoHub publishes them, written by ecCodes' grib_filter (an
 * independent writer, test/support/icon-grib.ts) from the real ICON-2I
 * orography message, with the parameters, levels and time ranges ICON
 * encodes (centre 80, so ecCodes' cnmc tables name them, and leave
 * ASWDIR_S/ASWDIFD_S unnamed). Each value is a function of the cell's height
 * read by grib_get_data, so the expected answers below are computed here:
 * - temperature 288.15 − 0.0065·z + 0.5·h K, dew point 5 K lower;
 * - TOT_PREC accumulated since the run start 0.5·h mm → 0.5 mm per hour;
 * - ASWDIR_S the mean since the run start of hourly means 100·k W/m²
 *   (50·(h+1)) → 100·h W/m² over hour h; ASWDIFD_S 50 W/m² throughout;
 * - VMAX_10M the maximum over the hour, 10 + h m/s, and 0 at step 0 where
 *   ICON's zero-length window holds nothing: missing there, never 0 m/s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../../ingest/pipeline.js';
import type { IngestReport } from '../../../ingest/ingest-report.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { ICON, orographyCells, orographyHeights, writeIconFile } from '../../support/icon-grib.js';
import { describeShared } from '../../support/shared-data.js';

const RUN = new Date(Date.UTC(2026, 2, 10, 0));
const STEPS = [0, 1, 2, 3];
const HOUR = 3_600_000;

describeShared('ICON-2I per-variable files into nwp', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-icon2i-'));
  const root = join(dir, 'data');
  let report: IngestReport;
  let tiles: TileStore;
  let heights: Float64Array;
  let cells: { lat: Float64Array; lon: Float64Array };

  beforeAll(async () => {
    heights = orographyHeights();
    cells = orographyCells();
    const file = (name: string) => join(dir, `${name}.grib`);
    const write = (name: keyof typeof ICON, f: (z: number, h: number) => number, steps = STEPS) => writeIconFile(file(name), ICON[name]!, RUN, steps, f, heights);
    const files = [
      write('T_2M', (z, h) => 288.15 - 0.0065 * z + 0.5 * h),
      write('TD_2M', (z, h) => 283.15 - 0.0065 * z + 0.5 * h),
      write('U_10M', () => 3),
      write('V_10M', () => -4),
      write('VMAX_10M', (_z, h) => (h === 0 ? 0 : 10 + h)),
      write('TOT_PREC', (_z, h) => 0.5 * h),
      write('CLCT', () => 40),
      write('PMSL', () => 101_500),
      write('PS', (z) => 101_300 - 11 * z),
      write('ASWDIR_S', (_z, h) => 50 * (h + 1)),
      write('ASWDIFD_S', () => 50),
      write('ATHB_S', () => -60),
      write('WW', () => 61),
      write('HSURF', (z) => z, [0]),
    ];
    report = await runIngest({ root, product: 'nwp', files, source: { model: 'ICON-2I' }, domain: { latMin: 43, latMax: 48, lonMin: 6, lonMax: 14.5 } });
    tiles = new TileStore(root);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('maps every ICON-2I variable, the unnamed ASWDIR_S/ASWDIFD_S by their GRIB2 code, and derives the stored index', () => {
    const skipped = report.skipped.filter((s) => !s.reason.includes('zero-length'));
    expect(skipped, JSON.stringify(skipped)).toEqual([]);
    for (const v of ['temperature_2m', 'dew_point_2m', 'relative_humidity_2m', 'wind_u_10m', 'wind_v_10m', 'wind_gust_10m', 'precipitation', 'cloud_cover', 'pressure_msl', 'surface_pressure', 'direct_radiation', 'shortwave_radiation', 'longwave_radiation', 'weather_code', 'elevation']) {
      expect(report.variables, v).toContain(v);
    }
    expect(report.variables).toContain('mean_radiant_temperature');
    for (const index of ['utci', 'wbgt_sun', 'et0']) expect(report.variables, index).not.toContain(index);
    expect(report.times).toBe(STEPS.length);
    expect(report.from).toBe(RUN.toISOString());
  });

  it('answers each variable at grid nodes as computed from the height grib_get_data reads', async () => {
    // Nodes: Monte Rosa area, the Po plain, the Adriatic off Rimini (sea), Bologna's hills.
    const nodes = [[45.94, 7.85], [45.1, 9.5], [44.2, 12.8], [44.4, 11.3]] as const;
    for (const [lat, lon] of nodes) {
      let k = -1;
      for (let i = 0; i < cells.lat.length; i++) if (Math.abs(cells.lat[i]! - lat) < 1e-6 && Math.abs(cells.lon[i]! - lon) < 1e-6) k = i;
      expect(k, `${lat},${lon} is a node`).toBeGreaterThanOrEqual(0);
      const z = heights[k]!;
      for (const h of [1, 3]) {
        const s = await tiles.sample('nwp', lat, lon, RUN.getTime() + h * HOUR);
        const v = s.values;
        expect(v.temperature_2m!).toBeCloseTo(15 - 0.0065 * z + 0.5 * h, 1);
        expect(v.dew_point_2m!).toBeCloseTo(10 - 0.0065 * z + 0.5 * h, 1);
        expect(v.precipitation!).toBeCloseTo(0.5, 2);
        expect(v.direct_radiation!).toBeCloseTo(100 * h, 0);
        expect(v.shortwave_radiation!).toBeCloseTo(100 * h + 50, 0);
        expect(v.wind_gust_10m!).toBeCloseTo(10 + h, 2);
        expect(v.cloud_cover!).toBeCloseTo(40, 1);
        expect(v.pressure_msl!).toBeCloseTo(1015, 1);
        expect(v.surface_pressure!).toBeCloseTo((101_300 - 11 * z) / 100, 0);
        expect(v.weather_code).toBe(61);
        expect(v.elevation!).toBeCloseTo(z, 0);
      }
    }
  });

  it('step 0: the gust (a maximum over a zero-length window) and the precipitation are missing, not 0', async () => {
    const s = await tiles.sample('nwp', 45.1, 9.5, RUN.getTime());
    expect(s.values.wind_gust_10m).toBeNull();
    expect(s.values.precipitation).toBeNull();
    expect(s.values.temperature_2m).not.toBeNull();
    expect(report.skipped.some((x) => x.name.startsWith('vmax_10m') && x.reason.includes('zero-length'))).toBe(true);
  });

  it('names the model in the manifest', () => {
    expect(tiles.pin('nwp')!.manifest.source.model).toBe('ICON-2I');
  });
});
