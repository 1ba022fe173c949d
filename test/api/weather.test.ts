/**
 * weather.php through keyedInject(app, ) over real tile stores written by the
 * production writer. Expected values are computed here by hand from the
 * closed forms the fixture wrote (tile-fixture.ts), not by the API's code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import {
  BARE, DEM, DEM_GRID, HOUR_MS, MAIN, NWP_GRID, T0_MS, bilinearByHand, tempDataDir, writeBareNwp, writeDem, writeMainNwp, installTestKey, keyedInject, testAccess } from './tile-fixture.js';

const P = { lat: 43.123, lon: 11.2345 };
const PX = (P.lon - NWP_GRID.x0) / NWP_GRID.dx; // 9.38
const PY = (P.lat - NWP_GRID.y0) / NWP_GRID.dy; // 6.15
const DX = (P.lon - DEM_GRID.x0) / DEM_GRID.dx; // 23.45
const DY = (P.lat - DEM_GRID.y0) / DEM_GRID.dy; // 12.3
const NOW_DAY = T0_MS + 10.5 * HOUR_MS; // 2024-06-21T10:30Z: the Sun is up in Tuscany
const NOW_NIGHT = T0_MS + 22.5 * HOUR_MS; // 22:30Z: down (sunset ~19:05Z)

/** Grid temperature at P by hand: bilinear in space at both bracketing hours, then linear in time. */
function gridTempAt(hours: number): number {
  const k0 = Math.floor(hours);
  const w = hours - k0;
  const a = bilinearByHand((i, j) => MAIN.temperature(i, j, k0), PX, PY);
  const b = bilinearByHand((i, j) => MAIN.temperature(i, j, k0 + 1), PX, PY);
  return a * (1 - w) + b * w;
}
const gridElevation = bilinearByHand(MAIN.elevation, PX, PY); // 316.8 m
const demElevation = bilinearByHand(DEM.elevation, DX, DY); // 583.8 m
/** WMO-No. 8 water curve, hPa (an independent check of the Magnus inverse). */
const ew = (t: number) => 6.112 * Math.exp((17.62 * t) / (243.12 + t));

function url(q: Record<string, string | number>): string {
  return `/api/v1/weather.php?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString()}`;
}

describe('weather.php over a full nwp store and a DEM', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  let night: FastifyInstance;

  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => NOW_DAY });
    night = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => NOW_NIGHT });
  });
  afterAll(async () => {
    await app?.close();
    await night?.close();
    data.cleanup();
  });

  it('checks the hand computation itself: fractional indices and corner values', () => {
    expect(PX).toBeCloseTo(9.38, 9);
    expect(PY).toBeCloseTo(6.15, 9);
    expect(gridElevation).toBeCloseTo(316.8, 6);
    // 0.62·0.85·T(9,6) + 0.38·0.85·T(10,6) + 0.62·0.15·T(9,7) + 0.38·0.15·T(10,7) at k = 10
    const t = (i: number, j: number) => MAIN.temperature(i, j, 10);
    const byCorners = 0.62 * 0.85 * t(9, 6) + 0.38 * 0.85 * t(10, 6) + 0.62 * 0.15 * t(9, 7) + 0.38 * 0.15 * t(10, 7);
    expect(bilinearByHand(t, PX, PY)).toBeCloseTo(byCorners, 9);
  });

  it('answers the Free fields at a point with alt: bilinear, linear in time, corrected to alt', async () => {
    const sent = performance.now();
    const res = await keyedInject(app, url({ ...P, alt: 380 }));
    const roundTripMs = performance.now() - sent;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    const tGrid = gridTempAt(10.5);
    const tPoint = tGrid + 0.0065 * (gridElevation - 380);
    expect(body.temperature).toBeCloseTo(tPoint, 1); // 27.43 → 27.4
    expect(body.temperature).toBe(27.4);
    expect(body.temperature_source).toBe('nwp fixture 2.2 km bilinear, altitude-corrected 317 m → 380 m (alt), lapse 6.5 K/km');
    // RH kept from the grid pair (T, T − 8); dew point recomputed at the corrected temperature
    const rh = (100 * ew(tGrid - 8)) / ew(tGrid);
    expect(Math.abs(body.humidity - rh)).toBeLessThanOrEqual(0.6);
    expect(Number.isInteger(body.humidity)).toBe(true);
    expect(ew(body.dew_point)).toBeCloseTo((rh / 100) * ew(tPoint), 0);
    expect(body.dew_point).toBeCloseTo(tPoint - 8 + 0.1, 0);
    // 1010 + 0.1·9.38 + 0.05·10.5 = 1011.463
    expect(body.pressure_msl).toBe(1011.5);
    // u = 3, v = 4 m/s: 5 m/s = 18 km/h from atan2(−3, −4) = 216.87° → 217
    expect(body.wind_speed).toBe(18);
    expect(body.wind_direction).toBe(217);
    // (10 + 0.5·6.15) m/s × 3.6 = 47.07 km/h
    expect(body.wind_gust).toBe(47.1);
    // 0.5 K/h for 3 h
    expect(body.temperature_trend_3h).toEqual({ delta: 1.5, label: 'in aumento, +1,5 °C in 3 ore' });
    // P lies between columns 9 (code 2) and 10 (code 61), nearer 9 (x = 9.38): weather_code is categorical and read
    // from the nearest cell, never averaged (the mean, 24.4, would be no code at all)
    expect(body.condition).toBe('partly_cloudy');
    expect(body.icon).toBe('partly-cloudy-day');
    expect(body.valid_time).toBe('2024-06-21T10:30:00.000Z');
    // Server time on the request (a timing): within the injected request's round trip.
    expect(body.elapsed_ms).toBeGreaterThanOrEqual(0);
    expect(body.elapsed_ms).toBeLessThanOrEqual(roundTripMs);
    // TEST_KEY is a Business key: the Developer fields follow the Free ones (their values: test/api/fields/developer);
    // air_quality and pollen are null here, no cams store being published (their values: test/api/fields/cams);
    // coastal and soil likewise, no marine or soil store (test/api/fields/coastal, test/api/fields/soil)
    expect(Object.keys(body)).toEqual([
      'icon', 'condition', 'temperature', 'temperature_source', 'dew_point', 'humidity', 'pressure_msl', 'wind_speed',
      'wind_direction', 'wind_gust', 'temperature_trend_3h', 'valid_time', 'elapsed_ms',
      'comfort', 'uv_index', 'wbgt', 'frost', 'et0', 'air_quality', 'pollen',
      'coastal', 'soil',
    ]);
    expect(body.air_quality).toBeNull();
    expect(body.pollen).toBeNull();
    expect(body.coastal).toBeNull();
    expect(body.soil).toBeNull();
  });

  it('corrects to the DEM elevation when alt is absent', async () => {
    const body = (await keyedInject(app, url(P))).json();
    expect(demElevation).toBeCloseTo(583.8, 6);
    const tPoint = gridTempAt(10.5) + 0.0065 * (gridElevation - demElevation); // 26.107
    expect(body.temperature).toBe(Math.round(tPoint * 10) / 10);
    expect(body.temperature).toBe(26.1);
    expect(body.temperature_source).toBe('nwp fixture 2.2 km bilinear, altitude-corrected 317 m → 584 m (dem), lapse 6.5 K/km');
    // the trend is corrected identically at both times, so it is the grid's own
    expect(body.temperature_trend_3h.delta).toBe(1.5);
  });

  it('leaves the temperature uncorrected where neither alt nor the DEM covers the point', async () => {
    const lon = 11.55; // east of the DEM (to 11.495 E), inside the nwp grid (to 11.5875 E)
    const body = (await keyedInject(app, url({ lat: P.lat, lon }))).json();
    const x = (lon - NWP_GRID.x0) / NWP_GRID.dx;
    const t = (h: number) => bilinearByHand((i, j) => MAIN.temperature(i, j, h), x, PY);
    expect(body.temperature).toBe(Math.round(((t(10) + t(11)) / 2) * 10) / 10);
    expect(body.temperature_source).toBe('nwp fixture 2.2 km bilinear, not altitude-corrected (no point elevation)');
  });

  it("uses the product's weather code where all neighbours agree", async () => {
    const west = (await keyedInject(app, url({ lat: P.lat, lon: NWP_GRID.x0 + 5.5 * NWP_GRID.dx, alt: 300 }))).json();
    expect(west).toMatchObject({ condition: 'partly_cloudy', icon: 'partly-cloudy-day' });
    const east = (await keyedInject(app, url({ lat: P.lat, lon: NWP_GRID.x0 + 15.5 * NWP_GRID.dx, alt: 300 }))).json();
    expect(east).toMatchObject({ condition: 'light_rain', icon: 'rain' });
  });

  it('gives night icons when the Sun is down', async () => {
    const body = (await keyedInject(night, url({ ...P, alt: 300 }))).json();
    expect(body.condition).toBe('partly_cloudy');
    expect(body.icon).toBe('partly-cloudy-night');
    expect(body.valid_time).toBe('2024-06-21T22:30:00.000Z');
  });

  it('serves a requested valid time (time=) and 404s outside the covered range', async () => {
    const body = (await keyedInject(app, url({ ...P, alt: 380, time: '2024-06-21T06:00' }))).json();
    expect(body.valid_time).toBe('2024-06-21T06:00:00.000Z');
    expect(body.temperature).toBeCloseTo(gridTempAt(6) + 0.0065 * (gridElevation - 380), 1);
    const gone = await keyedInject(app, url({ ...P, time: '2024-06-25T00:00' }));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe('NOT_FOUND');
    expect(gone.json().error.message).toContain('2024-06-21T00:00:00.000Z to 2024-06-22T00:00:00.000Z');
  });

  it('has no trend when three hours earlier is before the first step', async () => {
    const early = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 1 * HOUR_MS });
    try {
      const body = (await keyedInject(early, url({ ...P, alt: 380 }))).json();
      expect(body.temperature_trend_3h).toBeNull();
      expect(body.temperature).toBeCloseTo(gridTempAt(1) + 0.0065 * (gridElevation - 380), 1);
    } finally {
      await early.close();
    }
  });

  it('answers 503 DATA_NOT_AVAILABLE when the forecast no longer covers now', async () => {
    const late = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 30 * HOUR_MS });
    try {
      const res = await keyedInject(late, url(P));
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('DATA_NOT_AVAILABLE');
      expect(res.json().error.message).toContain('does not cover the current time');
    } finally {
      await late.close();
    }
  });

  it('answers 404 for a valid point outside the data grid', async () => {
    const res = await keyedInject(app, url({ lat: 45, lon: 12 }));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({ code: 'NOT_FOUND', message: expect.stringMatching(/^No data at this point \(lat 45, lon 12\): it lies outside the nwp grid, which covers lat /) });
  });

  it('ignores unknown parameters', async () => {
    const res = await keyedInject(app, `${url({ ...P, alt: 380 })}&foo=bar&units=imperial`);
    expect(res.statusCode).toBe(200);
    expect(res.json().temperature).toBe(27.4);
  });
});

describe('weather.php over a product that lacks variables', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeBareNwp(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => NOW_DAY });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('returns null for what cannot be computed and derives the rest', async () => {
    const res = await keyedInject(app, url({ ...P, alt: 1000 }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const t = BARE.temperature(0, 0, 10.5); // 12.9
    expect(body.temperature).toBe(12.9);
    expect(body.temperature_source).toBe('nwp 2.2 km bilinear, not altitude-corrected (no grid elevation), sample data');
    expect(body.humidity).toBe(70);
    // dew point from RH 70 % at 12.9 °C: ew(Td) = 0.7·ew(12.9) → Td ≈ 7.6 °C
    expect(ew(body.dew_point)).toBeCloseTo(0.7 * ew(t), 1);
    expect(body.pressure_msl).toBeNull();
    expect(body.wind_speed).toBeNull();
    expect(body.wind_direction).toBeNull();
    expect(body.wind_gust).toBeNull();
    // −0.2 K/h for 3 h
    expect(body.temperature_trend_3h).toEqual({ delta: -0.6, label: 'in calo, \u22120,6 °C in 3 ore' });
    // no weather code: derived from 90 % cloud and no precipitation → overcast (WMO 3)
    expect(body.condition).toBe('overcast');
    expect(body.icon).toBe('overcast');
  });
});

describe('weather.php and /healthz with no data', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir) });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('answers 503 DATA_NOT_AVAILABLE before the first ingest', async () => {
    const res = await keyedInject(app, url(P));
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('DATA_NOT_AVAILABLE');
    // No product is known by name: nothing feeds the base fields yet.
    expect(res.json().error.message).toBe('No weather data has been published yet; try again after the next ingest');
  });

  it('reports 503 on /healthz', async () => {
    const res = await keyedInject(app, '/healthz');
    expect(res.statusCode).toBe(503);
    expect(res.json().status).toBe('unavailable');
    // Products are listed from their manifests: before the first ingest there are none.
    expect(res.json().products).toEqual({});
  });
});

describe('/healthz with data', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeBareNwp(data.dir);
    await writeDem(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => NOW_DAY });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('reports each product: version, publication, time range, coverage of now, sample flag', async () => {
    const res = await keyedInject(app, '/healthz');
    expect(res.statusCode).toBe(200);
    const h = res.json();
    expect(h.status).toBe('ok');
    expect(h.time).toBe('2024-06-21T10:30:00.000Z');
    expect(Object.keys(h.products)).toEqual(['dem', 'nwp']);
    expect(h.products.nwp).toMatchObject({
      available: true,
      time_range: { from: '2024-06-21T00:00:00.000Z', to: '2024-06-22T00:00:00.000Z' },
      covers_now: true,
      sample: true,
      note: 'test sample',
      model: null,
    });
    expect(h.products.nwp.version).toMatch(/\.zarr$/);
    // published now (real time) while the frozen clock says 2024: age clamps at 0
    expect(h.products.nwp.age_seconds).toBe(0);
    expect(h.products.dem).toMatchObject({ available: true, time_range: null, covers_now: null, sample: false });
  });
});
