/**
 * Each accumulated value lands on the interval it
 * describes, and precipitation at a time is the amount of the interval that
 * holds it. Files written by netCDF4-python in the Climate Data Store's
 * NetCDF layout (test/ingest/fixtures/era5_accumulation_layouts.py); the
 * hourly amounts expected are read back from them by netCDF4-python with the
 * providers' rules (ERA5-Land: totals since 00 UTC; ERA5: the hour ending at
 * the time stamp), never from our readers.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { TileStore } from '../../tiles/read/reader.js';

const SCRIPT = join(import.meta.dirname, 'fixtures', 'era5_accumulation_layouts.py');
const py = (...args: string[]) => execFileSync('/usr/bin/python3', [SCRIPT, ...args], { encoding: 'utf8' });
const POINT = { lat: 43.8, lon: 11.2 };
const HOUR = 3_600_000;

describe('time semantics of accumulations (CDS NetCDF layouts)', () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-time-'));
  const land = join(work, 'era5-land-hourly-tp-ssrd-2023-07.nc');
  const three = join(work, 'era5-3hourly-tp-t2m-2023-07.nc');
  const forecast = join(work, 'forecast-3hourly-tp.nc');
  // One data root per source: a reanalysis year holds one source.
  let root = '';
  let store: TileStore;
  const ingest = async (file: string, name: string) => {
    root = join(work, name);
    const report = await runIngest({ root, product: 'reanalysis', files: [file] });
    store = new TileStore(root, { manifestCheckMs: 0 });
    return report;
  };
  const at = async (iso: string, names: string[]) => (await store.sample('reanalysis/2023', POINT.lat, POINT.lon, Date.parse(iso), names)).values;
  const manifest = () => JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', '2023', 'current.json'), 'utf8'));

  beforeAll(() => py('write', work));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ERA5-Land hourly totals since 00 UTC: 1 mm and 360 W/m² every hour, across 00 UTC too', async () => {
    const report = await ingest(land, 'land');
    expect(report.periods!.map((p) => p.period)).toEqual(['2023']);
    const tp = JSON.parse(py('hourly', land, 'tp', String(POINT.lat), String(POINT.lon))) as Record<string, number>;
    const ssrd = JSON.parse(py('hourly', land, 'ssrd', String(POINT.lat), String(POINT.lon))) as Record<string, number>;
    expect(Object.keys(tp)).toHaveLength(30);
    for (const [iso, metres] of Object.entries(tp)) {
      const end = Date.parse(iso);
      expect(metres * 1000).toBeCloseTo(1, 3);
      // The hour's amount at its end and anywhere inside it; the mean flux over it.
      for (const t of [end, end - HOUR / 2]) {
        const v = await at(new Date(t).toISOString(), ['precipitation', 'shortwave_radiation']);
        expect(Math.abs(v.precipitation! - 1000 * metres)).toBeLessThan(0.011);
        expect(Math.abs(v.shortwave_radiation! - ssrd[iso]! / 3600)).toBeLessThan(0.6);
      }
    }
    expect(manifest().variables.precipitation.interval).toEqual({ statistic: 'sum', seconds: 3600 });
  });

  it('ERA5 every third hour holding 1-hour totals: each answers its own hour, the two hours before it are null, not a share', async () => {
    await ingest(three, 'three');
    const m = manifest();
    expect(m.source.model).toBe('ERA5');
    expect(m.variables.precipitation.interval).toEqual({ statistic: 'sum', seconds: 3600 });
    for (const [k, mm] of [[1, 5], [2, 8], [3, 11]] as const) {
      const end = Date.UTC(2023, 6, 1, 3 * k);
      const iso = (ms: number) => new Date(ms).toISOString();
      expect((await at(iso(end), ['precipitation'])).precipitation).toBeCloseTo(mm, 2);
      expect((await at(iso(end - 0.5 * HOUR), ['precipitation'])).precipitation).toBeCloseTo(mm, 2);
      for (const before of [end - 1.5 * HOUR, end - 2 * HOUR, end - 2.5 * HOUR]) {
        expect((await at(iso(before), ['precipitation'])).precipitation).toBeNull();
      }
    }
    // Instantaneous values stay linear between the steps (K → °C).
    expect((await at('2023-07-01T04:00:00Z', ['temperature_2m'])).temperature_2m).toBeCloseTo(290 + 4 / 3 - 273.15, 2);
  });

  it('a forecast\'s 3-hour amounts: any time between two steps answers the amount of the step holding it, not a blend', async () => {
    const nwpRoot = join(work, 'nwp');
    await runIngest({ root: nwpRoot, product: 'nwp', files: [forecast] });
    const nwp = new TileStore(nwpRoot, { manifestCheckMs: 0 });
    const tp = async (iso: string) => (await nwp.sample('nwp', POINT.lat, POINT.lon, Date.parse(iso), ['precipitation'])).values.precipitation;
    // Values written: 3, 6, 9 mm over (0, 3], (3, 6], (6, 9] h.
    expect(await tp('2023-07-01T03:00:00Z')).toBeCloseTo(3, 2);
    expect(await tp('2023-07-01T04:00:00Z')).toBeCloseTo(6, 2);
    expect(await tp('2023-07-01T05:59:00Z')).toBeCloseTo(6, 2);
    expect(await tp('2023-07-01T06:00:00Z')).toBeCloseTo(6, 2);
    expect(await tp('2023-07-01T06:30:00Z')).toBeCloseTo(9, 2);
    expect(await tp('2023-07-01T09:00:00Z')).toBeCloseTo(9, 2);
  });
});
