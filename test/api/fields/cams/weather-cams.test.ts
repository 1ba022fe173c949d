/**
 * weather.php's `cams` group over an ingested real file: CAMS global EAC4
 * around Milan, 2020 (../shared/data/cams-eac4-milan), through the real
 * ingest, with a small nwp store for the required base fields. Expected
 * values come from netCDF4-python (fixtures/eaqi_reference.py: bilinear and
 * linear concentrations, EAQI from the EEA 2024 table transcribed there).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../../api/app.js';
import type { Plan } from '../../../../api/access/contract.js';
import { generateKey } from '../../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { withCatalogue } from '../../../../ingest/products/catalogue-input.js';
import { runIngest } from '../../../../ingest/pipeline.js';
import { writeProductVersion } from '../../../../tiles/write/writer.js';
import { dataFile, describeShared } from '../../../support/shared-data.js';

const EAC4 = dataFile('cams-eac4-milan/cams_global_reanalysis_concentrations_2020.nc');
const NAMES = { pm2_5: 'pm2p5', pm10: 'pm10', nitrogen_dioxide: 'no2', ozone: 'go3', sulphur_dioxide: 'so2' } as const;

interface Reference {
  recomputed: number;
  interpolated: number;
  level: string;
  dominant: string;
  conc: Record<keyof typeof NAMES, number>;
}

/** The EEA's European Air Quality Index levels in its Italian version (airindex.eea.europa.eu, 'Qualità dell'aria'). */
const EAQI_LABEL_IT: Record<string, string> = {
  good: 'buona',
  fair: 'discreta',
  moderate: 'moderata',
  poor: 'scadente',
  very_poor: 'molto scadente',
  extremely_poor: 'estremamente scadente',
};

function reference(queries: { lat: number; lon: number; time: string }[]): Reference[] {
  const out = execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'fixtures', 'eaqi_reference.py'), JSON.stringify({ file: EAC4, names: NAMES, queries })], { encoding: 'utf8' });
  return JSON.parse(out) as Reference[];
}

describeShared('weather.php air_quality and pollen over CAMS EAC4 Milan 2020', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-cams-api-'));
  const keys: Partial<Record<Plan, string>> = {};
  let app: FastifyInstance;

  beforeAll(async () => {
    await runIngest({ root, product: 'cams', files: [EAC4], domain: { latMin: 35, latMax: 48, lonMin: 5, lonMax: 20.5 } });
    // Base fields are required: a plain nwp store over the same area and days.
    const grid = { kind: 'regular_ll' as const, nx: 20, ny: 8, x0: 8.8, y0: 44.8, dx: 0.25, dy: 0.25 };
    const times = Array.from({ length: 49 }, (_, k) => new Date(Date.UTC(2020, 6, 1) + k * 3600_000));
    const constant = (x: number) => times.map(() => new Float32Array(grid.nx * grid.ny).fill(x));
    await writeProductVersion(root, withCatalogue({
      product: 'nwp', grid, times, source: { files: ['fixture'] },
      variables: {
        temperature_2m: { units: '°C', precision: 0.01, values: constant(25) },
        relative_humidity_2m: { units: '%', precision: 0.1, values: constant(50) },
        cloud_cover: { units: '%', precision: 0.1, values: constant(10) },
        precipitation: { units: 'mm', precision: 0.01, values: constant(0) },
      },
    }));
    const store = new FileKeyStore(keysFilePath(root));
    for (const plan of ['free', 'developer', 'business'] as const) {
      const k = generateKey();
      await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind: 'api', name: plan, created: new Date().toISOString() });
      keys[plan] = k.key;
    }
    await store.close();
    app = await buildApp({ dataDir: root, access: { env: { METEOPUNTO_DATA: root, METEOPUNTO_QUOTA_FREE_MINUTE: '1000', METEOPUNTO_QUOTA_FREE_DAY: '1000', METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000' } } });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (plan: Plan, query: string) => app.inject({ url: `/api/v1/weather.php?${query}`, headers: { 'x-api-key': keys[plan]! } });

  const points = [
    { lat: 45.46, lon: 9.19, time: '2020-07-01T13:00:00Z' },
    { lat: 45.3, lon: 10.8, time: '2020-07-01T22:30:00Z' },
    { lat: 45.9, lon: 9.6, time: '2020-07-02T00:00:00Z' },
  ];

  it('Business, fields=cams: concentrations within 1 % of netCDF4-python, the EAQI of those concentrations, pollen unknown (null, never 0)', async () => {
    const refs = reference(points);
    for (const [n, p] of points.entries()) {
      const res = await get('business', `lat=${p.lat}&lon=${p.lon}&time=${p.time.replace('Z', '')}&fields=cams`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const ref = refs[n]!;
      for (const [variable, want] of Object.entries(ref.conc)) {
        const got = body.air_quality[variable] as number;
        expect(Math.abs(got - want), `${variable} ${got} vs ${want}`).toBeLessThanOrEqual(Math.max(0.01 * want, 0.05));
      }
      expect(Math.abs(body.air_quality.eaqi.value - ref.recomputed)).toBeLessThanOrEqual(Math.max(0.01 * ref.recomputed, 0.1));
      expect(body.air_quality.eaqi.level).toBe(ref.level);
      expect(body.air_quality.eaqi.label).toBe(EAQI_LABEL_IT[ref.level]);
      expect(body.air_quality.dominant_pollutant).toBe(ref.dominant);
      expect(body.air_quality.source).toMatch(/^cams/);
      expect(body.pollen.risk).toBeNull();
      expect(body.pollen.species).toEqual({ alder: null, birch: null, grass: null, mugwort: null, olive: null, ragweed: null });
      // fields=cams selects only its group among the selectable ones.
      for (const f of ['wbgt', 'frost', 'et0', 'coastal', 'soil']) expect(body).not.toHaveProperty(f);
    }
  });

  it('Developer, fields=cams, with the clock inside the file (no time=): the same values as netCDF4-python', async () => {
    const p = points[0]!;
    const dev = await buildApp({
      dataDir: root,
      clock: () => Date.parse(p.time),
      access: { env: { METEOPUNTO_DATA: root, METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000' } },
    });
    try {
      const res = await dev.inject({ url: `/api/v1/weather.php?lat=${p.lat}&lon=${p.lon}&fields=cams`, headers: { 'x-api-key': keys.developer! } });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const ref = reference([p])[0]!;
      for (const [variable, want] of Object.entries(ref.conc)) {
        expect(Math.abs((body.air_quality[variable] as number) - want), variable).toBeLessThanOrEqual(Math.max(0.01 * want, 0.05));
      }
      expect(body.air_quality.eaqi.level).toBe(ref.level);
      expect(body.pollen).toEqual({ risk: null, risk_it: null, species: { alder: null, birch: null, grass: null, mugwort: null, olive: null, ragweed: null }, source: expect.stringMatching(/^cams/) });
    } finally {
      await dev.close();
    }
  });

  it('Free keys get neither field, and asking for cams is 403 naming the Developer plan', async () => {
    const q = `lat=45.46&lon=9.19`;
    const refused = await get('free', `${q}&fields=cams`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('PLAN_REQUIRED');
    expect(refused.json().error.message).toMatch(/Developer plan/);
  });

  it('where no cams version covers the time, both fields are null (the rest of the answer stands)', async () => {
    const res = await get('business', 'lat=45.46&lon=9.19&time=2020-07-01T12:00:00&fields=cams');
    expect(res.statusCode).toBe(200);
    // Inside the region: the file's values (netCDF4-python), so that the null below is the region's doing.
    const [inside] = reference([{ lat: 45.46, lon: 9.19, time: '2020-07-01T12:00:00Z' }]);
    expect(Math.abs(res.json().air_quality.pm2_5 - inside!.conc.pm2_5)).toBeLessThanOrEqual(Math.max(0.01 * inside!.conc.pm2_5, 0.05));
    expect(res.json().air_quality.eaqi.level).toBe(inside!.level);
    // Outside the cams region (its 0.75° grid around Milan) but inside the nwp fixture: null, not 404.
    const outside = await get('business', 'lat=45.5&lon=12.8&time=2020-07-01T12:00:00&fields=cams');
    expect(outside.statusCode).toBe(200);
    expect(outside.json().air_quality).toBeNull();
    expect(outside.json().pollen).toBeNull();
  });
});
