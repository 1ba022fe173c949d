/**
 * docs/coastal.md's schedule example: ECMWF WAM open data
 * (jobs/examples/ecmwf-wam.jobs.json) loads and expands to the wave files
 * of the newest 00/12 UTC run; the built-in defaults watch inbox/marine.
 * No network request.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRODUCTS, loadJobsConfig } from '../../jobs/config.js';
import { configuredIngestJob } from '../../jobs/ingest-job.js';
import { getProduct } from '../../ingest/products/registry.js';

describe('marine schedules', () => {
  it('the ECMWF WAM example loads and asks for the 0–72 h wave files of the newest run', async () => {
    const path = resolve(import.meta.dirname, '../../jobs/examples/ecmwf-wam.jobs.json');
    const config = await loadJobsConfig('/data', { METEOPUNTO_JOBS_CONFIG: path });
    // 21:15 UTC − 8 h = 13:15 → the 12Z run (cycle 12 h).
    const { id, data } = configuredIngestJob('/data', 'marine', config.products.marine!, { now: new Date('2026-07-09T21:15:00Z'), trigger: 'schedule' });
    expect(id).toBe('marine@2026-07-09T12Z');
    if (data.source.kind !== 'http') throw new Error('expected http');
    const files = data.source.files;
    expect(files).toHaveLength(25);
    expect(files[0]!.url).toBe('https://data.ecmwf.int/forecasts/20260709/12z/ifs/0p25/wave/20260709120000-0h-wave-fc.grib2');
    expect(files.at(-1)!.url).toBe('https://data.ecmwf.int/forecasts/20260709/12z/ifs/0p25/wave/20260709120000-72h-wave-fc.grib2');
    // 07:00 UTC: the 12Z run of the day before is the newest published.
    expect(configuredIngestJob('/data', 'marine', config.products.marine!, { now: new Date('2026-07-10T07:00:00Z'), trigger: 'schedule' }).id).toBe('marine@2026-07-09T12Z');
  });

  it('without a jobs.json, marine files dropped into inbox/marine are ingested by a known product', () => {
    expect(DEFAULT_PRODUCTS.marine).toEqual({ schedule: { cron: '40 * * * *' }, source: { kind: 'inbox', dir: 'inbox/marine' } });
    expect(getProduct('marine').feeds).toEqual(['coastal']);
  });
});
