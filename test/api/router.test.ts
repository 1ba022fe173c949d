/**
 * The product router and the builders through weather.php: the
 * products that answer come from their manifests (feeds, priority, region,
 * time layout), never from names in code. Stores hold constant fields, one
 * value per product, so each answer says by itself which product gave it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { buildApp } from '../../api/app.js';
import type { FieldBuilder } from '../../api/fields/contract.js';
import { BUILDERS } from '../../api/fields/registry.js';
import { PublishedProducts } from '../../api/router/published.js';
import { WeatherService } from '../../api/weather/service.js';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { SAN_MARINO_BBOX, SAN_MARINO_POLYGON } from '../../geo/regions.js';
import { TileStore } from '../../tiles/read/reader.js';
import type { ProductMeta, VariableInput } from '../../tiles/types.js';
import { writeProductVersion } from '../../tiles/write/writer.js';
import { installTestKey, keyedInject, tempDataDir, testAccess } from './tile-fixture.js';

/** 1° around San Marino (43.94 N, 12.45 E), 0.05°. */
const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 21, ny: 21, x0: 11.95, y0: 43.45, dx: 0.05, dy: 0.05 };
const CELLS = GRID.nx * GRID.ny;
const HOUR = 3_600_000;
const RUN = Date.UTC(2026, 10, 24, 0);
const hours = (n: number, start: number, stepH = 1) => Array.from({ length: n }, (_, k) => new Date(start + k * stepH * HOUR));
const constant = (times: Date[], v: number, precision = 0.01, units = '°C'): VariableInput => ({ units, precision, values: times.map(() => new Float32Array(CELLS).fill(v)) });

async function publish(root: string, product: string, times: Date[], variables: Record<string, VariableInput>, meta: ProductMeta): Promise<void> {
  await writeProductVersion(root, { product, grid: GRID, times, variables, source: { files: ['router-test'] }, meta });
}

const url = (q: Record<string, string | number>) => `/api/v1/weather.php?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;
const SERRAVALLE = { lat: 43.9706, lon: 12.4806 }; // inside San Marino
const RIMINI = { lat: 44.06, lon: 12.57 };

describe('which product answers', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    const fc = hours(24, RUN);
    await publish(data.dir, 'nwp', fc, { temperature_2m: constant(fc, 11) }, { layout: 'forecast', feeds: ['base'], priority: 10 });
    // A finer product for San Marino only, above nwp.
    await publish(data.dir, 'fine', fc, { temperature_2m: constant(fc, 22) }, {
      layout: 'forecast', feeds: ['base'], priority: 20,
      region: { name: 'San Marino', bbox: [...SAN_MARINO_BBOX] as [number, number, number, number], polygon: [SAN_MARINO_POLYGON.coordinates] },
    });
    // Two reanalysis years, below nwp.
    for (const [year, value] of [[1925, 5], [1950, 6]] as const) {
      const t = hours(48, Date.UTC(year, 6, 1), 3);
      await publish(data.dir, 'reanalysis', t, { temperature_2m: constant(t, value) }, { layout: 'periods', period: String(year), feeds: ['base'], priority: 5 });
    }
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => RUN + 5 * HOUR });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('outside San Marino: nwp', async () => {
    const b = (await keyedInject(app, url(RIMINI))).json();
    expect(b.temperature).toBe(11);
    expect(b.temperature_source).toMatch(/^nwp /);
  });

  it('inside the San Marino polygon: the product whose region it is, by priority', async () => {
    const b = (await keyedInject(app, url(SERRAVALLE))).json();
    expect(b.temperature).toBe(22);
    expect(b.temperature_source).toMatch(/^fine /);
  });

  it('a time before the forecast: the reanalysis year covering it', async () => {
    const b = (await keyedInject(app, url({ ...RIMINI, time: '1950-07-02T12:00' }))).json();
    expect(b.temperature).toBe(6);
    expect(b.valid_time).toBe('1950-07-02T12:00:00.000Z');
    expect((await keyedInject(app, url({ ...RIMINI, time: '1925-07-01T12:00' }))).json().temperature).toBe(5);
  });

  it('a year not backfilled: 404 naming the years present', async () => {
    const r = await keyedInject(app, url({ ...RIMINI, time: '1960-01-01T00:00' }));
    expect(r.statusCode).toBe(404);
    expect(r.json().error.message).toContain('reanalysis has no data for 1960 (years present: 1925, 1950)');
  });

  it('after the forecast: 404 with the covered range', async () => {
    const r = await keyedInject(app, url({ ...RIMINI, time: '2026-11-26T00:00' }));
    expect(r.statusCode).toBe(404);
    expect(r.json().error.message).toContain('nwp data covers 2026-11-24T00:00:00.000Z to 2026-11-24T23:00:00.000Z');
  });

  it('a point outside every region: 404 about the widest grid, with its bounds and the parameter bounds', async () => {
    // GRID's cells are centred on 43.45..44.45 N, 11.95..12.95 E, 0.05° apart: its edges lie half a cell beyond.
    const wide = 'the nwp grid, which covers lat 43.425–44.475, lon 11.925–12.975 (the parameters accept lat 35–48, lon 5–20.5)';
    for (const [p, where] of [[{ lat: 35, lon: 5 }, 'lat 35, lon 5'], [{ lat: 47.9, lon: 12 }, 'lat 47.9, lon 12'], [{ lat: 43.9, lon: 12.99 }, 'lat 43.9, lon 12.99']] as const) {
      const r = await keyedInject(app, url(p));
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ error: { code: 'NOT_FOUND', message: `No data at this point (${where}): it lies outside ${wide}` } });
    }
  });

  it('healthz lists every product and every period from the manifests', async () => {
    const h = (await keyedInject(app, '/healthz')).json();
    expect(Object.keys(h.products).sort()).toEqual(['fine', 'nwp', 'reanalysis/1925', 'reanalysis/1950']);
    expect(h.status).toBe('ok');
  });

  it('reads each product once per instant, from versions pinned for the request', async () => {
    const tiles = new TileStore(data.dir);
    const calls: string[] = [];
    const spy = Object.assign(Object.create(tiles) as TileStore, {
      trySampleIn: (...a: Parameters<TileStore['trySampleIn']>) => {
        calls.push(`${a[0].key}@${a[3] === null ? 'static' : new Date(a[3]).toISOString()}`);
        return tiles.trySampleIn(...a);
      },
      sampleIn: (...a: Parameters<TileStore['sampleIn']>) => tiles.sampleIn(...a),
    });
    const service = new WeatherService(spy, new PublishedProducts(tiles), { clock: () => RUN + 5 * HOUR });
    const req = { ...RIMINI, plan: 'business' as const, groups: new Set(['wbgt', 'frost', 'et0'] as const) };
    await service.observe(req);
    calls.length = 0;
    const answer = service.tryObserve(req);
    // Free and Developer fields in one lookup of nwp at the valid time, plus the trend's three hours back.
    expect(calls).toEqual(['nwp@2026-11-24T05:00:00.000Z', 'nwp@2026-11-24T02:00:00.000Z']);
    // Answered from the cached chunks alone, the same as the loading path.
    expect(answer).toEqual(await service.observe(req));
  });

  it('answers through loads when the cache keeps no block at all (each lookup loaded once, then answered from the request)', async () => {
    // A 1-byte budget: every decoded block is larger, so the cache holds none and no cached-only lookup ever succeeds.
    const tiles = new TileStore(data.dir, { cacheBytes: 1 });
    const loads: string[] = [];
    const spy = Object.assign(Object.create(tiles) as TileStore, {
      trySampleIn: (...a: Parameters<TileStore['trySampleIn']>) => tiles.trySampleIn(...a),
      sampleIn: (...a: Parameters<TileStore['sampleIn']>) => {
        loads.push(`${a[0].key}@${a[3] === null ? 'static' : new Date(a[3]).toISOString()}`);
        return tiles.sampleIn(...a);
      },
    });
    const service = new WeatherService(spy, new PublishedProducts(tiles), { clock: () => RUN + 5 * HOUR });
    expect(service.tryObserve({ ...RIMINI, plan: 'business', groups: new Set() })).toBeUndefined();
    const out = await service.observe({ ...RIMINI, plan: 'business', groups: new Set() });
    expect(tiles.cacheStats().chunks).toBe(0);
    // nwp holds 11 °C everywhere at every hour, so the trend three hours back is 0.
    expect(out.temperature).toBe(11);
    expect((out.temperature_trend_3h as { delta: number }).delta).toBe(0);
    expect(loads).toEqual(['nwp@2026-11-24T05:00:00.000Z', 'nwp@2026-11-24T02:00:00.000Z']);
    const sm = await service.observe({ ...SERRAVALLE, plan: 'business', groups: new Set() });
    expect(sm.temperature).toBe(22);
  });
});

describe('categories and amounts at the API (regressions)', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    const t = hours(2, RUN + 10 * HOUR); // 10:00, 11:00
    const code10 = new Float32Array(CELLS).fill(3);
    for (let j = 0; j < GRID.ny; j++) code10[j * GRID.nx] = 0; // column 0: clear; column 1: code 2 below
    for (let j = 0; j < GRID.ny; j++) code10[j * GRID.nx + 1] = 2;
    await publish(data.dir, 'nwp', t, {
      temperature_2m: constant(t, 10),
      weather_code: { units: 'WMO 4677', precision: 1, interpolation: 'nearest', values: [code10, new Float32Array(CELLS).fill(61)] },
    }, { feeds: ['base'] });
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => RUN + 10.5 * HOUR });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('code 3 at 10:00 and 61 at 11:00: at 10:30 light rain, not "unknown" (the mean, 32, is no code)', async () => {
    const b = (await keyedInject(app, url(RIMINI))).json();
    expect(b.condition).toBe('light_rain');
  });

  it('codes 0 and 2 side by side: clear or partly cloudy, never mainly_clear (the mean, 1)', async () => {
    const lat = 44.0;
    const near0 = (await keyedInject(app, url({ lat, lon: GRID.x0 + 0.4 * GRID.dx, time: '2026-11-24T10:00' }))).json();
    const near2 = (await keyedInject(app, url({ lat, lon: GRID.x0 + 0.6 * GRID.dx, time: '2026-11-24T10:00' }))).json();
    expect([near0.condition, near2.condition]).toEqual(['clear', 'partly_cloudy']);
  });
});

describe('precipitation is an amount over the step', () => {
  const cases = [
    // 3 mm over 3 h = 1 mm/h: dense drizzle (WMO 55: 1.0–1.3 mm/h); over 1 h, 3 mm/h is rain (63: 2.5–7.6).
    { stepH: 3, condition: 'dense_drizzle', mm: 3 },
    { stepH: 1, condition: 'rain', mm: 3 },
    // A daily amount of 24 mm is 1 mm/h.
    { stepH: 24, condition: 'dense_drizzle', mm: 24 },
  ];
  it.each(cases)('$mm mm per $stepH-hour step → $condition', async ({ stepH, condition, mm }) => {
    const data = tempDataDir();
    try {
      await installTestKey(data.dir);
      const t = hours(3, RUN, stepH);
      await publish(data.dir, 'nwp', t, {
        temperature_2m: constant(t, 10),
        cloud_cover: constant(t, 90, 0.1, '%'),
        precipitation: constant(t, mm, 0.01, 'mm'),
      }, { feeds: ['base'] });
      const app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => RUN + stepH * HOUR });
      const b = (await keyedInject(app, url(RIMINI))).json();
      await app.close();
      expect(b.condition).toBe(condition);
    } finally {
      data.cleanup();
    }
  });
});

describe('a new field group needs a catalogue entry, a store and a builder — nothing else', () => {
  const data = tempDataDir();
  beforeAll(async () => {
    const t = hours(4, RUN);
    await publish(data.dir, 'nwp', t, { temperature_2m: constant(t, 11) }, { feeds: ['base'] });
    await publish(data.dir, 'buoys', t, { wave_height: constant(t, 1.25, 0.01, 'm') }, { feeds: ['waves'] });
  });
  afterAll(() => data.cleanup());

  it('the service runs the extra builder on the product feeding its group', async () => {
    const waves: FieldBuilder = {
      name: 'waves',
      minPlan: 'free',
      groups: {},
      reads: [{ feed: 'waves', variables: () => ['wave_height'] }],
      properties: { waves: Type.Object({ height: Type.Number() }) },
      required: [],
      build(ctx) {
        const f = ctx.feed('waves');
        ctx.out.waves = f ? { height: f.now.values.wave_height } : null;
      },
    };
    const tiles = new TileStore(data.dir);
    const service = new WeatherService(tiles, new PublishedProducts(tiles), { clock: () => RUN + HOUR, builders: [...BUILDERS, waves] });
    const out = await service.observe({ ...RIMINI, plan: 'free', groups: new Set() });
    expect(out.temperature).toBe(11);
    expect(out.waves).toEqual({ height: 1.25 });
  });
});
