/**
 * A switch's warm on a bucket (tiles/read/warm.ts, fetch-ahead): s3rver behind
 * a proxy that delays every request 40 ms, as a bucket across a network. The
 * GETs a warm has at once are counted at the proxy (not timed): with
 * `warmGets` = 5 the next blocks' chunks are fetched while one decodes, 5
 * GETs at most, more than one block's 2; with 0 one block's; a block whose GETs fail
 * stops the warm there, in order, as the existing contract says
 * (docs/tiles.md#warming): the old version answers until then, the new one
 * goes live with the blocks before it warm, its requests report the error.
 * Values are the constants each version was written with.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { withCatalogue } from '../../../ingest/products/catalogue-input.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { TileError } from '../../../tiles/errors.js';
import type { WarmReport } from '../../../tiles/read/warm.js';
import type { TileStorage } from '../../../tiles/storage/types.js';
import type { VariableInput } from '../../../tiles/types.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { startLatencyProxy, type LatencyProxy } from '../../support/latency-proxy.js';

// 160 × 96 cells: 5 × 3 chunks of 32 × 32, warmed in order (row by row).
const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 160, ny: 96, x0: 8, y0: 40, dx: 0.02, dy: 0.02 };
const NCX = 5;
const BLOCKS = 15;
const CELLS = GRID.nx * GRID.ny;
const T0 = Date.UTC(2026, 10, 24, 0);
const times = Array.from({ length: 4 }, (_, k) => new Date(T0 + k * 3_600_000));
const series = (v: number, units: string): VariableInput => ({ units, precision: 0.01, values: times.map(() => new Float32Array(CELLS).fill(v)) });
// Two int16 'base' members: one block kind, two chunk files (two GETs) a block.
const NAMES = ['temperature_2m', 'pressure_msl'];
const AT = T0 + 1.5 * 3_600_000;
/** The middle of chunk c. */
const point = (c: number) => ({ lat: GRID.y0 + (Math.floor(c / NCX) * 32 + 16) * GRID.dy, lon: GRID.x0 + ((c % NCX) * 32 + 16) * GRID.dx });

let s3: S3TestServer;
let proxy: LatencyProxy;
beforeAll(async () => {
  s3 = await startS3Server();
  proxy = await startLatencyProxy(s3.endpoint, { delayMs: 40, count: (path) => path.includes('.zarr/') && !path.endsWith('/.zmetadata') });
});
afterAll(async () => {
  await proxy?.close();
  await s3?.close();
});

async function publish(storage: TileStorage, temperature: number): Promise<string> {
  const r = await writeProductVersion(storage, withCatalogue({
    product: 'nwp', grid: GRID, times,
    variables: { temperature_2m: series(temperature, '°C'), pressure_msl: series(1012, 'hPa') },
    source: { files: ['t'] },
  }));
  return r.version;
}

/** A bucket store (its writer beside it, without the proxy) with version a live and warm, reading through the proxy. */
async function warmBucket(warmGets: number) {
  const prefix = `warm-${randomBytes(4).toString('hex')}`;
  const writer = s3.storage(prefix);
  const a = await publish(writer, 12);
  const reports: WarmReport[] = [];
  const tiles = new TileStore(s3.storage(prefix, { endpoint: proxy.endpoint, warmGets }), {
    cacheBytes: 64 << 20, manifestCheckMs: 0, warm: () => NAMES, onWarm: (r) => reports.push(r),
  });
  await tiles.readyAll();
  proxy.resetCounts();
  await tiles.warmLive(['nwp']);
  // A start decodes on every thread (one per core), fetching as many GETs ahead for each.
  expect(proxy.maxGetsInFlight).toBeLessThanOrEqual(Math.max(warmGets, 2) * availableParallelism());
  return { writer, a, reports, tiles };
}

/** Publish version b (temperature 20) and follow the switch: the versions answering meanwhile, then b's report. */
async function switchTo(w: Awaited<ReturnType<typeof warmBucket>>, b: () => Promise<string>) {
  const version = await b();
  w.tiles.refresh(['nwp']);
  const answered = new Set<string>();
  for (let i = 0; i < 3000 && !w.reports.some((r) => r.version === version); i++) {
    const vs = w.tiles.pin('nwp')!;
    answered.add(`${vs.version}=${(await w.tiles.sampleIn(vs, point(0).lat, point(0).lon, AT, NAMES)).values.temperature_2m}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const report = w.reports.find((r) => r.version === version)!;
  return { version, report, answered };
}

describe('a switch on a bucket fetches ahead of its decodes', () => {
  it('warmGets 5: the chunks of the next blocks are fetched while one decodes, at most 5 GETs at once', async () => {
    const w = await warmBucket(5);
    proxy.resetCounts();
    const { version, report, answered } = await switchTo(w, () => publish(w.writer, 20));
    expect(report).toEqual(expect.objectContaining({ version, switched: true, blocks: BLOCKS, total: BLOCKS }));
    expect(report.stopped).toBeUndefined();
    // Every chunk of the version once (2 a block), more than one block's at once.
    expect(proxy.gets).toBe(2 * BLOCKS);
    expect(proxy.maxGetsInFlight).toBeGreaterThan(2);
    expect(proxy.maxGetsInFlight).toBeLessThanOrEqual(5);
    // The old version answered until the switch, then the new one, warm everywhere.
    expect([...answered].every((s) => s === `${w.a}=12` || s === `${version}=20`)).toBe(true);
    expect(w.tiles.pin('nwp')!.version).toBe(version);
    for (let c = 0; c < BLOCKS; c++) expect(w.tiles.trySample('nwp', point(c).lat, point(c).lon, AT, NAMES)?.values.temperature_2m).toBe(20);
  });

  it('warmGets 0: one block\'s chunks at a time (2 GETs), as before fetch-ahead', async () => {
    const w = await warmBucket(0);
    proxy.resetCounts();
    const { version, report } = await switchTo(w, () => publish(w.writer, 20));
    expect(report).toEqual(expect.objectContaining({ version, switched: true, blocks: BLOCKS, total: BLOCKS }));
    expect(proxy.gets).toBe(2 * BLOCKS);
    expect(proxy.maxGetsInFlight).toBe(2);
  });

  it('a block whose GETs fail mid-warm stops it there: the old version answers until then, the new one goes live, its requests report the error', async () => {
    const w = await warmBucket(5);
    const failing = 7; // chunk (1, 2): blocks 0-6 warm before it, the next ones already being fetched
    let b = '';
    proxy.failWhen((method, path) => method === 'GET' && b !== '' && path.includes(`/${b}/`) && path.endsWith(`/temperature_2m/0.1.2`));
    const { version, report, answered } = await switchTo(w, async () => {
      // The version's name is known once written; the failure applies from its first read.
      b = await publish(w.writer, 20);
      return b;
    });
    expect(report).toEqual(expect.objectContaining({ version, switched: true, blocks: failing, total: BLOCKS }));
    expect(report.stopped).toMatch(/a block could not be read/);
    expect(report.gone).toBeUndefined();
    expect([...answered].every((s) => s === `${w.a}=12` || s === `${version}=20`)).toBe(true);
    expect(answered.has(`${w.a}=12`)).toBe(true);
    expect(w.tiles.pin('nwp')!.version).toBe(version);
    // Warm before the failing block, cold from it on; the failing block's request reports the bucket's failure.
    expect(w.tiles.trySample('nwp', point(failing - 1).lat, point(failing - 1).lon, AT, NAMES)?.values.temperature_2m).toBe(20);
    expect(w.tiles.trySample('nwp', point(failing + 1).lat, point(failing + 1).lon, AT, NAMES)).toBeUndefined();
    const err = await w.tiles.sample('nwp', point(failing).lat, point(failing).lon, AT, NAMES).then(() => null, (e: unknown) => e);
    expect((err as TileError).code).toBe('STORAGE_UNAVAILABLE');
    proxy.failWhen(null);
    expect((await w.tiles.sample('nwp', point(failing).lat, point(failing).lon, AT, NAMES)).values.temperature_2m).toBe(20);
  });
});
