/**
 * Real tile stores for the API tests, written with the production writer
 * (tiles/write/writer.ts) into a temp dir. Fields are simple closed forms in the
 * cell indices (i east, j north) and the hour k, so tests compute expected
 * values by hand, independently of the reader and the API.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../api/app.js';
import type { AccessPluginOptions } from '../../api/access/plugin.js';
import type { Plan } from '../../api/access/contract.js';
import { FileKeyStore, keysFilePath } from '../../api/access/key-store-file.js';
import { hashKey, prefixOf } from '../../api/access/key-format.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { withCatalogue } from '../../ingest/products/catalogue-input.js';
import { writeProductVersion } from '../../tiles/write/writer.js';
import type { TilesAt } from '../../tiles/storage/open.js';
import type { VariableInput } from '../../tiles/types.js';

/** nwp grid: 0.025° × 0.02° (≈ 2.2 km), SW corner 43.0 N 11.0 E (Tuscany). */
export const NWP_GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 24, ny: 20, x0: 11.0, y0: 43.0, dx: 0.025, dy: 0.02 };
/** dem grid: 0.01°, same corner. */
export const DEM_GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 50, ny: 40, x0: 11.0, y0: 43.0, dx: 0.01, dy: 0.01 };
/** Hourly steps k = 0..24 from this instant. */
export const T0_MS = Date.UTC(2024, 5, 21, 0, 0);
export const STEPS = 25;
export const HOUR_MS = 3600_000;

/** Closed forms of the main nwp store (cell i, j; hour k). */
export const MAIN = {
  temperature: (i: number, j: number, k: number) => 20 + 0.1 * i - 0.2 * j + 0.05 * i * j + 0.5 * k,
  /** Constant dew-point depression of 8 K. */
  dewPoint: (i: number, j: number, k: number) => MAIN.temperature(i, j, k) - 8,
  pressure: (i: number, _j: number, k: number) => 1010 + 0.1 * i + 0.05 * k,
  windU: 3,
  windV: 4,
  gust: (_i: number, j: number) => 10 + 0.5 * j,
  /** WMO 4677: partly cloudy west of column 10, light rain from it (points between columns 9 and 10 take the nearer one). */
  weatherCode: (i: number) => (i < 10 ? 2 : 61),
  elevation: (i: number, j: number) => 100 + 10 * i + 20 * j,
};
export const DEM = { elevation: (i: number, j: number) => 500 + 2 * i + 3 * j };
/** The second store: temperature, RH, cloud and precipitation only. */
export const BARE = {
  temperature: (_i: number, _j: number, k: number) => 15 - 0.2 * k,
  rh: 70,
  cloud: 90,
};

function field(grid: RegularLatLonGrid, f: (i: number, j: number) => number): Float32Array {
  const a = new Float32Array(grid.nx * grid.ny);
  for (let j = 0; j < grid.ny; j++) for (let i = 0; i < grid.nx; i++) a[j * grid.nx + i] = f(i, j);
  return a;
}

function series(grid: RegularLatLonGrid, f: (i: number, j: number, k: number) => number, precision: number, units: string): VariableInput {
  return { units, precision, values: Array.from({ length: STEPS }, (_, k) => field(grid, (i, j) => f(i, j, k))) };
}

const times = () => Array.from({ length: STEPS }, (_, k) => new Date(T0_MS + k * HOUR_MS));

export function tempDataDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mp-api-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The main nwp store (all Free variables, dew point but no RH); `source` adds to its manifest's source (a run, the sample flag). */
export async function writeMainNwp(root: TilesAt, source: { run?: string; sample?: boolean } = {}): Promise<void> {
  const g = NWP_GRID;
  await writeProductVersion(root, withCatalogue({
    product: 'nwp',
    grid: g,
    times: times(),
    source: { files: ['fixture'], model: 'fixture', ...source },
    variables: {
      temperature_2m: series(g, MAIN.temperature, 0.01, '°C'),
      dew_point_2m: series(g, MAIN.dewPoint, 0.01, '°C'),
      pressure_msl: series(g, MAIN.pressure, 0.01, 'hPa'),
      wind_u_10m: series(g, () => MAIN.windU, 0.01, 'm/s'),
      wind_v_10m: series(g, () => MAIN.windV, 0.01, 'm/s'),
      wind_gust_10m: series(g, (i, j) => MAIN.gust(i, j), 0.01, 'm/s'),
      cloud_cover: series(g, () => 50, 0.1, '%'),
      precipitation: series(g, () => 0, 0.01, 'mm'),
      snowfall_fraction: series(g, () => 0, 0.001, '1'),
      weather_code: series(g, (i) => MAIN.weatherCode(i), 1, 'WMO 4677'),
      elevation: { units: 'm', precision: 0.1, static: true, values: [field(g, MAIN.elevation)] },
    },
  }));
}

/** A static DEM product. */
export async function writeDem(root: TilesAt): Promise<void> {
  await writeProductVersion(root, withCatalogue({
    product: 'dem',
    grid: DEM_GRID,
    times: [],
    source: { files: ['fixture-dem'] },
    variables: { elevation: { units: 'm', precision: 0.1, static: true, values: [field(DEM_GRID, DEM.elevation)] } },
  }));
}

/** An nwp store with only temperature, RH, cloud cover and precipitation; marked as sample data. */
export async function writeBareNwp(root: string): Promise<void> {
  const g = NWP_GRID;
  await writeProductVersion(root, withCatalogue({
    product: 'nwp',
    grid: g,
    times: times(),
    source: { files: ['fixture-bare'], sample: true, note: 'test sample' },
    variables: {
      temperature_2m: series(g, BARE.temperature, 0.01, '°C'),
      relative_humidity_2m: series(g, () => BARE.rh, 0.1, '%'),
      cloud_cover: series(g, () => BARE.cloud, 0.1, '%'),
      precipitation: series(g, () => 0, 0.01, 'mm'),
    },
  }));
}

/**
 * Bilinear interpolation by hand: the four cells around fractional index
 * (x, y) weighted by the areas of the opposite sub-rectangles.
 */
export function bilinearByHand(f: (i: number, j: number) => number, x: number, y: number): number {
  const i0 = Math.floor(x);
  const j0 = Math.floor(y);
  const fx = x - i0;
  const fy = y - j0;
  return (
    f(i0, j0) * (1 - fx) * (1 - fy) + f(i0 + 1, j0) * fx * (1 - fy) + f(i0, j0 + 1) * (1 - fx) * fy + f(i0 + 1, j0 + 1) * fx * fy
  );
}

// --- keys: weather.php needs an API key (api/access) -----------------------

/** A well-formed key (mp_ + 8-char prefix + 32-char secret) installed by installTestKey. */
export const TEST_KEY = 'mp_apitestsQ7u4Zr2Kp9Lx3Vb6Nc8Hd1Fg5Jm0Ws4T';

/** Store TEST_KEY's hash in the embedded key store of `dir` with `plan`. */
export async function installTestKey(dir: string, plan: Plan = 'business'): Promise<void> {
  const store = new FileKeyStore(keysFilePath(dir));
  await store.insert({ prefix: prefixOf(TEST_KEY)!, hash: hashKey(TEST_KEY), plan, kind: 'api', name: 'api tests', created: new Date().toISOString() });
  await store.close();
}

/** Access options for buildApp: embedded keys in `dir`, quotas high enough never to bite in these tests. */
export function testAccess(dir: string): AccessPluginOptions {
  return { env: { METEOPUNTO_DATA: dir, METEOPUNTO_QUOTA_BUSINESS_MINUTE: '1000000', METEOPUNTO_QUOTA_BUSINESS_DAY: '100000000', METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000000' } };
}

/** app.inject with TEST_KEY in X-API-Key. */
export function keyedInject(app: FastifyInstance, req: string | InjectOptions): Promise<LightMyRequestResponse> {
  const opts: InjectOptions = typeof req === 'string' ? { url: req } : req;
  return app.inject({ ...opts, headers: { ...(opts.headers ?? {}), 'x-api-key': TEST_KEY } });
}

/**
 * For a describe block: the app over the main nwp fixture with TEST_KEY on
 * `plan`, clock frozen at `nowMs`; built before its tests, closed after.
 */
export function mainFixtureApp(plan: Plan = 'business', nowMs = T0_MS + 10 * HOUR_MS): { app(): FastifyInstance; dir: string } {
  const data = tempDataDir();
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    await installTestKey(data.dir, plan);
    await writeMainNwp(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => nowMs });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });
  return { app: () => app!, dir: data.dir };
}
