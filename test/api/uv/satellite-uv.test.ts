/**
 * uv_index with the satellite term: a SARAH-layout effective cloud albedo
 * file (written by netCDF4-python, test/api/uv/make_sarah_cal.py) ingested
 * as product `uv` over part of Italy, next to the sample forecast. Inside
 * its grid and time, a Developer answer's uv_index uses the satellite
 * (source says so, and the cloud modification is the Heliosat clear-sky
 * index of the file's albedo, computed here: k = 1 − CAL for CAL ≤ 0.8);
 * outside, the NWP factor as before.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { generateKey } from '../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../api/access/key-store-file.js';
import { UV_SOURCES } from '../../../api/fields/developer/uv.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { buildSampleDataset } from '../../../ingest/sample/build.js';

const CAL = 0.4;
const dir = mkdtempSync(join(tmpdir(), 'mp-uvsat-'));
let app: FastifyInstance;
let base: string;
let key = '';

beforeAll(async () => {
  const grid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
  await buildSampleDataset({ root: dir, hoursAhead: 6, nwpGrid: grid, demGrid: grid });
  // Half-hour slots from an hour ago to two hours ahead, over 41–43 N, 12–14 E (Lazio and Abruzzo).
  const start = Math.floor(Date.now() / 1_800_000) * 1800 - 3600;
  const file = join(dir, 'sarah-cal.nc');
  execFileSync('/usr/bin/python3', [resolve(import.meta.dirname, 'make_sarah_cal.py'), file, String(start), '7', String(CAL), '41', '43', '12', '14']);
  await runIngest({ root: dir, product: 'uv', files: [file], domain: { latMin: 35, latMax: 48, lonMin: 5, lonMax: 20.5 } });
  const store = new FileKeyStore(keysFilePath(dir));
  const k = generateKey();
  await store.insert({ prefix: k.prefix, hash: k.hash, plan: 'developer', kind: 'api', name: 'uv', created: new Date().toISOString() });
  await store.close();
  key = k.key;
  app = await buildApp({ dataDir: dir, access: { env: { METEOPUNTO_DATA: dir, METEOPUNTO_QUOTA_DEVELOPER_MINUTE: '1000' } } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface UvBody { value: number; clear_sky: number; cloud_modification: number; source: string }
const uvAt = async (q: string): Promise<UvBody> => {
  const r = await fetch(`${base}/api/v1/weather.php?${q}&api_key=${key}`);
  expect(r.status).toBe(200);
  return ((await r.json()) as { uv_index: UvBody }).uv_index;
};

describe('uv_index with the satellite term', () => {
  it('uses the satellite albedo where it covers the point and time', async () => {
    const uv = await uvAt('lat=41.9&lon=12.5');
    expect(uv.source).toBe(UV_SOURCES.satellite);
    expect(uv.cloud_modification).toBeCloseTo(1 - CAL, 2);
    // value = clear-sky × CMF, each rounded to 0.1 in the answer.
    expect(Math.abs(uv.value - uv.clear_sky * (1 - CAL))).toBeLessThanOrEqual(0.1);
  });

  it('falls back to the NWP factor outside the satellite grid', async () => {
    const uv = await uvAt('lat=45.4&lon=9.2');
    expect([UV_SOURCES.shortwave, UV_SOURCES.cloudCover]).toContain(uv.source);
  });
});
