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

// EEA 2024 band lower edges, µg/m³ (ETC HE Report 2024/17, hourly), as the publication prints them.
const EEA_EDGES: Record<string, number[]> = {
  pm2_5: [0, 5, 15, 50, 90, 140],
  pm10: [0, 15, 45, 120, 195, 270],
  nitrogen_dioxide: [0, 10, 25, 60, 100, 150],
  ozone: [0, 60, 100, 120, 160, 180],
  sulphur_dioxide: [0, 20, 40, 125, 190, 275],
};
const EEA_LEVELS_IT = ['buona', 'discreta', 'moderata', 'scadente', 'molto scadente', 'estremamente scadente'];

/** The continuous EAQI by hand: in band k, 20·(k + (c − e_k)/(e_{k+1} − e_k)) (the last band's slope beyond); the highest sub-index. */
function eaqiByHand(c: Record<string, number | null>): { value: number; dominant: string } {
  let best = { value: -1, dominant: '' };
  for (const [p, e] of Object.entries(EEA_EDGES)) {
    const x = Math.max(0, c[p]!);
    let k = 0;
    while (k < e.length - 2 && x >= e[k + 1]!) k++;
    const sub = 20 * (k + (x - e[k]!) / (e[k + 1]! - e[k]!));
    if (sub > best.value) best = { value: sub, dominant: p };
  }
  return best;
}

// POLLnet / AIA classes, grains/m³: the lower edge of low, medium and high.
const POLLNET_EDGES: Record<string, [number, number, number]> = {
  alder: [0.6, 16, 50], birch: [0.6, 16, 50], grass: [0.6, 10, 30], olive: [0.6, 5, 25], mugwort: [0.1, 5, 25], ragweed: [0.1, 5, 25],
};
const POLLEN_RISKS = ['absent', 'low', 'medium', 'high'];
const pollenRiskByHand = (species: string, v: number): number => POLLNET_EDGES[species]!.filter((edge) => v >= edge).length;

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
    const eaqi = eaqiByHand(v);
    expect(aq.eaqi.value).toBeCloseTo(eaqi.value, 1);
    // Levels are intervals (lower, upper] of 20 index points.
    expect(aq.eaqi.label).toBe(EEA_LEVELS_IT[Math.min(5, Math.max(0, Math.ceil(eaqi.value / 20) - 1))]);
    expect(aq.dominant_pollutant).toBe(eaqi.dominant);
    expect(aq.source).toMatch(/sample data/);
    expect(Object.keys(body.pollen.species)).toEqual(['alder', 'birch', 'grass', 'mugwort', 'olive', 'ragweed']);
    let worst = 0;
    for (const [name, s] of Object.entries(body.pollen.species) as [string, { value: number; risk: string }][]) {
      const grains = Math.max(0, v[`${name}_pollen`]!);
      expect(s.value, name).toBeCloseTo(grains, 1);
      const level = pollenRiskByHand(name, grains);
      expect(s.risk, `${name} ${grains} grains/m³`).toBe(POLLEN_RISKS[level]);
      worst = Math.max(worst, level);
    }
    expect(body.pollen.risk).toBe(POLLEN_RISKS[worst]);
  });
});
