/**
 * `npm start`'s sample dataset answers air_quality and pollen for a
 * Developer key (now, no time=), labelled as sample data; the values are the
 * interpolated tiles through the published tables (independent of the builder).
 */
import type { FastifyInstance } from 'fastify';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../api/app.js';
import { generateKey } from '../../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { TileStore } from '../../../../tiles/read/reader.js';
import { withSampleTiles } from '../../access/fixtures/api-process.js';

describe('weather.php cams group over the sample dataset', () => {
  let root: string;
  let app: FastifyInstance;
  let key: string;
  beforeAll(async () => {
    root = await withSampleTiles('mp-cams-sample-');
    const store = new FileKeyStore(keysFilePath(root));
    const k = generateKey();
    await store.insert({ prefix: k.prefix, hash: k.hash, plan: 'developer', kind: 'api', name: 'dev', created: new Date().toISOString() });
    await store.close();
    key = k.key;
    app = await buildApp({ dataDir: root, access: { env: { METEOPUNTO_DATA: root } } });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('Developer, default fields: both objects, every pollutant and species, labelled sample', async () => {
    const res = await app.inject({ url: '/api/v1/weather.php?lat=45.46&lon=9.19', headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const aq = body.air_quality;
    const v = (await new TileStore(root).sample('cams', 45.46, 9.19, Date.parse(body.valid_time))).values;
    for (const p of ['pm2_5', 'pm10', 'nitrogen_dioxide', 'ozone', 'sulphur_dioxide']) expect(aq[p]).toBeCloseTo(v[p]!, 1);
    expect(aq.eaqi.value).toBeGreaterThanOrEqual(0);
    expect(['buona', 'discreta', 'moderata', 'scadente', 'molto scadente', 'estremamente scadente']).toContain(aq.eaqi.label);
    expect(aq.source).toMatch(/sample data/);
    expect(Object.keys(body.pollen.species)).toEqual(['alder', 'birch', 'grass', 'mugwort', 'olive', 'ragweed']);
    for (const s of Object.values(body.pollen.species) as { value: number; risk: string }[]) {
      expect(s.value).toBeGreaterThanOrEqual(0);
      expect(['absent', 'low', 'medium', 'high']).toContain(s.risk);
    }
    expect(['absent', 'low', 'medium', 'high']).toContain(body.pollen.risk);
  });
});
