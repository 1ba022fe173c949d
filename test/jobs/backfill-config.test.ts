/**
 * The backfill sources of jobs/examples/reanalysis-backfill.jobs.json load and
 * expand per year: 20CRv3 to NOAA PSL's per-variable file names for the
 * year, ERA5 to a Climate Data Store request for the year with the key left
 * as an environment variable name. No network request is made.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJobsConfig, JobsConfigError } from '../../jobs/config.js';
import { backfillJob, sourceForYear } from '../../jobs/backfill/plan.js';
import { yearBytes } from '../../jobs/backfill/estimate.js';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'jobs', 'examples', 'reanalysis-backfill.jobs.json');

describe('backfill configuration', () => {
  const config = parseJobsConfig(JSON.parse(readFileSync(EXAMPLE, 'utf8')), EXAMPLE);

  it('auto picks 20CRv3 before 1940 and ERA5 from 1940', () => {
    expect([1920, 1939, 1940, 2020].map((y) => sourceForYear(y, 'auto'))).toEqual(['20crv3', '20crv3', 'era5', 'era5']);
    expect(sourceForYear(1925, 'era5')).toBe('era5');
  });

  it('20CRv3: one job per year, id reanalysis@<year>, the year in every per-year file name', () => {
    const { id, data } = backfillJob('/srv/mp', config, 1925, '20crv3');
    expect(id).toBe('reanalysis@1925');
    expect(data).toMatchObject({ product: 'reanalysis', model: '20CRv3', run: '1925-01-01T00:00:00.000Z' });
    if (data.source.kind !== 'http') throw new Error('expected http');
    expect(data.source.files.map((f) => f.name)).toEqual(['air.2m.1925.nc', 'rhum.2m.1925.nc', 'prmsl.1925.nc', 'uwnd.10m.1925.nc', 'vwnd.10m.1925.nc', 'hgt.sfc.nc']);
    expect(data.source.options.notFound).toBe('fail');
  });

  it('ERA5 from the CDS: a request per month of the year (its own days only), geopotential once, the key only as a variable name', () => {
    const { id, data } = backfillJob('/srv/mp', config, 1952, 'era5');
    expect(id).toBe('reanalysis@1952');
    if (data.source.kind !== 'ads') throw new Error('expected ads');
    const src = data.source;
    expect(src.keyEnv).toBe('CDS_API_KEY');
    expect(src.requests.map((r) => r.key)).toEqual(['invariant', ...Array.from({ length: 12 }, (_, i) => `1952-${String(i + 1).padStart(2, '0')}`)]);
    const [invariant, ...months] = src.requests;
    // Once: the first date and time of the year, nothing but geopotential.
    expect(invariant!.request).toMatchObject({ variable: ['geopotential'], year: ['1952'], month: ['01'], day: ['01'], time: ['00:00'] });
    expect(invariant!.fileName).toBe('era5-italy-1952-invariant.grib');
    // 1952 is a leap year: February has 29 days, April 30, December 31 (days of the month, by hand).
    expect(months.map((m) => (m.request.day as string[]).length)).toEqual([31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    for (const [i, m] of months.entries()) {
      expect(m.request.month).toEqual([String(i + 1).padStart(2, '0')]);
      expect(m.request.year).toEqual(['1952']);
      expect(m.request.variable).not.toContain('geopotential');
      expect((m.request.variable as string[]).length).toBe(11);
      expect((m.request.time as string[]).length).toBe(24);
    }
    expect(months[1]!.fileName).toBe('era5-italy-1952-02.grib');
    // One month of Italy: 11 variables × 29 days × 24 h = 7,656 fields, far under the per-request limit (a year: about 96,000).
    expect(11 * 29 * 24).toBe(7656);
    expect(JSON.stringify(data)).not.toMatch(/PRIVATE-TOKEN|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('a split needs one year and a month list; invariant variables cannot be all of them', () => {
    const era5 = JSON.parse(readFileSync(EXAMPLE, 'utf8')).backfill.era5;
    const bad = (change: (s: Record<string, unknown>) => void) => {
      const src = structuredClone(era5.source);
      change(src);
      return () => parseJobsConfig({ products: {}, backfill: { era5: { source: src } } }, 'jobs.json');
    };
    expect(bad((s) => ((s.request as Record<string, unknown>).year = ['1950', '1951']))).toThrow(/backfill\/era5\/source: split "month" needs request.year to be one year/);
    expect(bad((s) => delete (s.request as Record<string, unknown>).month)).toThrow(/split "month" needs request.month/);
    expect(bad((s) => (s.invariantVariables = (s.request as { variable: string[] }).variable))).toThrow(/every variable of the request is invariant/);
  });

  it('a missing source is a configuration error naming the key to add; a bad template names its path', () => {
    const bare = parseJobsConfig({ products: {} }, 'jobs.json');
    expect(() => backfillJob('/srv/mp', bare, 1925, '20crv3')).toThrow(JobsConfigError);
    expect(() => backfillJob('/srv/mp', bare, 1925, '20crv3')).toThrow(/no backfill source '20crv3' in jobs.json/);
    expect(() => parseJobsConfig({ products: {}, backfill: { '20crv3': { source: { kind: 'http', urls: ['https://x/{year}.nc'] } } } }, 'jobs.json'))
      .toThrow(/jobs.json: \/backfill\/20crv3\/source: unknown placeholder \{year\}/);
  });

  it('disk estimate per year: int16 × cells × steps × variables', () => {
    expect(yearBytes('era5')).toBe(67 * 57 * 8760 * 10 * 2);
    expect(yearBytes('20crv3')).toBe(21 * 18 * 2920 * 7 * 2);
  });
});
