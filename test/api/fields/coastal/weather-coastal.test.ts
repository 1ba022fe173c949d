/**
 * weather.php's `coastal` group over real HTTP (the app listening on a
 * loopback port), on stores made by the real ingest: the real Copernicus
 * MED SST L4 file, and a MEDSEA wave file written with netCDF4-python to the
 * product's layout (fixtures/make_medsea_waves.py; no real one is
 * available offline). Expected values come from netCDF4-python
 * (test/ingest/products/fixtures/marine_reference.py) and the WMO 3700 table
 * transcribed below, not from the code under test.
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
import { describeShared } from '../../../support/shared-data.js';
import { marineReference, SST_FILE } from '../../../ingest/products/marine-reference.js';

const DOMAIN = { latMin: 35, latMax: 48, lonMin: 5, lonMax: 20.5 };

/** WMO-No. 306 code table 3700: upper bound of Hs (m, inclusive) and the Italian name. */
const WMO_3700: [number, string][] = [
  [0, 'calmo'], [0.1, 'quasi calmo'], [0.5, 'poco mosso'], [1.25, 'mosso'], [2.5, 'molto mosso'],
  [4, 'agitato'], [6, 'molto agitato'], [9, 'grosso'], [14, 'molto grosso'], [Infinity, 'tempestoso'],
];
const douglas = (hs: number) => {
  const code = WMO_3700.findIndex(([max]) => hs <= max);
  return { code, label: WMO_3700[code]![1] };
};

interface Server {
  root: string;
  app: FastifyInstance;
  base: string;
  keys: Record<Plan, string>;
}

/** A data dir with the marine store from `files`, a flat nwp store for the required base fields over `hours`, keys and a listening app. */
async function serve(prefix: string, files: string[], hours: Date[]): Promise<Server> {
  // The clock stands at the middle of the stores' hours: requests without time= read them too.
  const nowMs = hours[Math.floor(hours.length / 2)]!.getTime();
  const root = mkdtempSync(join(tmpdir(), prefix));
  await runIngest({ root, product: 'marine', files, domain: DOMAIN });
  const grid = { kind: 'regular_ll' as const, nx: 50, ny: 30, x0: 8, y0: 38, dx: 0.25, dy: 0.25 };
  const constant = (x: number) => hours.map(() => new Float32Array(grid.nx * grid.ny).fill(x));
  await writeProductVersion(root, withCatalogue({
    product: 'nwp', grid, times: hours, source: { files: ['fixture'] },
    variables: {
      temperature_2m: { units: '°C', precision: 0.01, values: constant(25) },
      relative_humidity_2m: { units: '%', precision: 0.1, values: constant(60) },
      cloud_cover: { units: '%', precision: 0.1, values: constant(10) },
      precipitation: { units: 'mm', precision: 0.01, values: constant(0) },
    },
  }));
  const store = new FileKeyStore(keysFilePath(root));
  const keys = {} as Record<Plan, string>;
  for (const plan of ['free', 'developer', 'business'] as const) {
    const k = generateKey();
    await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind: 'api', name: plan, created: new Date().toISOString() });
    keys[plan] = k.key;
  }
  await store.close();
  const app = await buildApp({ dataDir: root, clock: () => nowMs, access: { env: { METEOPUNTO_DATA: root, METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000' } } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { root, app, base, keys };
}

async function get(s: Server, plan: Plan, query: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${s.base}/api/v1/weather.php?${query}`, { headers: { 'x-api-key': s.keys[plan] } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const hoursAround = (iso: string) => [-3, -2, -1, 0, 1, 2].map((h) => new Date(Date.parse(iso) + h * 3600_000));

describeShared('weather.php coastal over the real MED SST L4 file', () => {
  let s: Server;
  const T = '2025-07-09T00:00';
  beforeAll(async () => {
    s = await serve('mp-coastal-sst-', [SST_FILE], hoursAround(`${T}:00Z`));
  }, 120_000);
  afterAll(async () => {
    await s?.app.close();
    if (s) rmSync(s.root, { recursive: true, force: true });
  });

  it('Business: SST at open-sea points as netCDF4-python (one decimal), wave fields null (the file has none), distance 0', async () => {
    const refs = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', points: [{ lat: 44.12, lon: 12.7 }, { lat: 40.013, lon: 12.021 }, { lat: 42.51, lon: 16.04 }] });
    for (const r of refs) {
      expect(r.sea).toEqual([true, true, true, true]);
      const { status, body } = await get(s, 'business', `lat=${r.lat}&lon=${r.lon}&time=${T}`);
      expect(status, JSON.stringify(body)).toBe(200);
      const c = body.coastal;
      expect(Math.abs(c.sea_surface_temperature - r.bilinear_sea!), `${c.sea_surface_temperature} vs ${r.bilinear_sea}`).toBeLessThanOrEqual(0.05 + 0.02);
      expect(c).toMatchObject({ wave_height: null, wave_direction: null, wave_period: null, wave_peak_period: null, sea_state: null, distance_km: 0 });
      expect(c.source).toMatch(/^marine/);
    }
  });

  it('a coastal point whose neighbours mix land and sea: the sea cells only, weights renormalised', async () => {
    const refs = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', mixed: { box: [43.5, 44.5, 12.2, 13.6], count: 4 } });
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const r of refs) {
      const sea = r.sea.filter(Boolean).length;
      expect(sea > 0 && sea < 4, 'mixed neighbours').toBe(true);
      const { status, body } = await get(s, 'business', `lat=${r.lat}&lon=${r.lon}&time=${T}&fields=coastal`);
      expect(status).toBe(200);
      expect(Math.abs(body.coastal.sea_surface_temperature - r.bilinear_sea!), `${r.lat}, ${r.lon}`).toBeLessThanOrEqual(0.05 + 0.02);
      // The values come from the sea neighbours: the distance is 0 when the point's own cell (the neighbour of
      // largest weight) is sea, else that of the nearest sea neighbour, in km.
      const own = [0, 1, 2, 3].reduce((a, b) => (r.corner_w[b]! > r.corner_w[a]! ? b : a));
      const km = r.sea[own] ? 0 : Math.min(...[0, 1, 2, 3].filter((k) => r.sea[k] && r.corner_w[k]! > 0).map((k) => r.corner_km[k]!));
      expect(body.coastal.distance_km, `${r.lat}, ${r.lon}: corners ${r.corner_km.map((d) => d.toFixed(2))}, sea ${r.sea}`).toBeCloseTo(km, 1);
    }
  });

  it('a beach whose four neighbours are land: the nearest sea cell within 10 km, and how far it is', async () => {
    const [r] = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', radius_km: 12, points: [{ lat: 44.06, lon: 12.57 }] });
    expect(r!.sea).toEqual([false, false, false, false]);
    const { body } = await get(s, 'business', `lat=44.06&lon=12.57&time=${T}`);
    const c = body.coastal;
    expect(c.distance_km).toBeGreaterThan(0);
    expect(c.distance_km).toBeLessThanOrEqual(10);
    const cell = r!.sea_within_radius.find((x) => Math.abs(x.distance_km - c.distance_km) <= 0.05);
    expect(cell, `a sea cell ${c.distance_km} km away`).toBeDefined();
    expect(Math.abs(c.sea_surface_temperature - cell!.value)).toBeLessThanOrEqual(0.05 + 0.02);
  });

  it('inland beyond the radius (Florence, Perugia): coastal is null, status 200', async () => {
    for (const [lat, lon] of [[43.77, 11.25], [43.11, 12.39]]) {
      const [r] = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', radius_km: 10, points: [{ lat, lon }] });
      expect(r!.sea_within_radius).toEqual([]);
      const { status, body } = await get(s, 'business', `lat=${lat}&lon=${lon}&time=${T}`);
      expect(status).toBe(200);
      expect(body).toHaveProperty('coastal', null);
      expect(body.temperature).toBe(25);
    }
  });

  it('Business only: without fields= a Developer key gets no coastal and a Business key does; fields=coastal below Business is 403 naming the plan', async () => {
    const dev = await get(s, 'developer', 'lat=44.12&lon=12.7');
    expect(dev.status).toBe(200);
    expect(dev.body).not.toHaveProperty('coastal');
    expect(dev.body).toHaveProperty('comfort');
    const biz = await get(s, 'business', 'lat=44.12&lon=12.7');
    const [r] = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', points: [{ lat: 44.12, lon: 12.7 }] });
    expect(Math.abs(biz.body.coastal.sea_surface_temperature - r!.bilinear_sea!), `${biz.body.coastal.sea_surface_temperature} vs ${r!.bilinear_sea}`).toBeLessThanOrEqual(0.05 + 0.02);
    for (const plan of ['developer', 'free'] as const) {
      const r = await get(s, plan, 'lat=44.12&lon=12.7&fields=coastal');
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('PLAN_REQUIRED');
      expect(r.body.error.message).toMatch(/Business/);
    }
  });
});

describeShared('weather.php coastal over a MEDSEA wave file (netCDF4-python, product layout)', () => {
  let s: Server;
  let file: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mp-medsea-'));
    file = join(dir, 'medsea_waves.nc');
    execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'fixtures', 'make_medsea_waves.py'), file]);
    s = await serve('mp-coastal-waves-', [file], hoursAround('2026-07-09T00:00:00Z'));
  }, 120_000);
  afterAll(async () => {
    await s?.app.close();
    if (s) rmSync(s.root, { recursive: true, force: true });
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('wave height, direction (nearest sea cell), mean and peak period, sea state from the height; SST null', async () => {
    const points = [{ lat: 44.21, lon: 13.31 }, { lat: 43.83, lon: 12.9 }, { lat: 44.43, lon: 13.52 }];
    const ref = (v: string) => marineReference({ kind: 'netcdf', file, var: v, time_index: 1, points });
    const [hs, dir, tm, tp] = [ref('VHM0'), ref('VMDR'), ref('VTM10'), ref('VTPK')];
    for (const [n, p] of points.entries()) {
      expect(hs[n]!.sea).toEqual([true, true, true, true]);
      const { status, body } = await get(s, 'business', `lat=${p.lat}&lon=${p.lon}&time=2026-07-09T01:00&fields=coastal`);
      expect(status, JSON.stringify(body)).toBe(200);
      const c = body.coastal;
      expect(Math.abs(c.wave_height - hs[n]!.bilinear_sea!)).toBeLessThanOrEqual(0.005 + 0.02);
      expect(Math.abs(c.wave_direction - dir[n]!.nearest_sea!)).toBeLessThanOrEqual(0.5 + 0.1);
      expect(Math.abs(c.wave_period - tm[n]!.bilinear_sea!)).toBeLessThanOrEqual(0.05 + 0.02);
      expect(Math.abs(c.wave_peak_period - tp[n]!.bilinear_sea!)).toBeLessThanOrEqual(0.05 + 0.02);
      expect(c.sea_state).toEqual(douglas(hs[n]!.bilinear_sea!));
      expect(c.sea_surface_temperature).toBeNull();
      expect(c.distance_km).toBe(0);
    }
    // The three points span more than one sea state.
    const states = new Set(hs.map((r) => douglas(r.bilinear_sea!).code));
    expect(states.size).toBeGreaterThan(1);
  });

  it('mixed land and sea neighbours: sea cells only; a point on land beyond 10 km: null', async () => {
    const refs = marineReference({ kind: 'netcdf', file, var: 'VHM0', time_index: 0, mixed: { box: [43.5, 44.5, 12.2, 13.6], count: 5 } });
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const r of refs) {
      const { body } = await get(s, 'business', `lat=${r.lat}&lon=${r.lon}&time=2026-07-09T00:00&fields=coastal`);
      expect(Math.abs(body.coastal.wave_height - r.bilinear_sea!), `${r.lat}, ${r.lon}`).toBeLessThanOrEqual(0.005 + 0.02);
    }
    const far = await get(s, 'business', 'lat=43.7&lon=11.9&time=2026-07-09T00:00');
    expect(far.status).toBe(200);
    expect(far.body.coastal).toBeNull();
  });
});
