/**
 * `npm start`'s sample dataset includes sm100: a Developer demo key asking
 * for a point in San Marino gets the sm100 temperature (the interpolated
 * sm100 tiles, read here through the tile reader, not the builder), labelled
 * as sample data; the same point with a Free key is refused.
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../api/app.js';
import { generateKey } from '../../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { readManifestSync } from '../../../../tiles/manifest-file.js';
import { TileStore } from '../../../../tiles/read/reader.js';
import { withSampleTiles } from '../../../api/access/fixtures/api-process.js';
import { join } from 'node:path';

describe('sm100 in the sample dataset', () => {
  let root: string;
  let app: FastifyInstance;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    root = await withSampleTiles('mp-sm100-sample-');
    const store = new FileKeyStore(keysFilePath(root));
    for (const plan of ['free', 'developer'] as const) {
      const k = generateKey();
      await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind: 'api', name: plan, created: new Date().toISOString() });
      keys[plan] = k.key;
    }
    await store.close();
    app = await buildApp({ dataDir: root, access: { env: { METEOPUNTO_DATA: root } } });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is built from the sample nwp, labelled sample, and answers a Developer key in San Marino', async () => {
    const m = readManifestSync(join(root, 'tiles', 'sm100'))!;
    expect(m.derived_from?.version).toBe(readManifestSync(join(root, 'tiles', 'nwp'))!.version);
    expect(m.source.sample).toBe(true);
    expect(readManifestSync(join(root, 'tiles', 'sm100-dem'))!.source.sample).toBe(true);
    const res = await app.inject({ url: '/api/v1/weather.php?lat=43.9356&lon=12.4473', headers: { 'x-api-key': keys.developer! } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { temperature: number; temperature_source: string; valid_time: string; comfort: unknown };
    expect(body.temperature_source).toMatch(/^sm100 100 m bilinear, downscaled from nwp [\d.]+ km with .*, at the grid's elevation \d+ m, sample data$/);
    const t = (await new TileStore(root).sample('sm100', 43.9356, 12.4473, Date.parse(body.valid_time), ['temperature_2m'])).values.temperature_2m!;
    expect(Math.abs(body.temperature - t)).toBeLessThanOrEqual(0.05);
    expect(body.comfort).not.toBeNull();
    const free = await app.inject({ url: '/api/v1/weather.php?lat=43.9356&lon=12.4473', headers: { 'x-api-key': keys.free! } });
    expect(free.statusCode).toBe(403);
  });
});
