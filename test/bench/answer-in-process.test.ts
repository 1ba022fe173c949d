/**
 * bench/answer-in-process.ts computes, without HTTP, the answers the cold phase's server sends: its bodies are
 * checked against weather.php's own, asked over a socket of the real app with a Business key on the sample dataset.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { FileKeyStore, keysFilePath } from '../../api/access/key-store-file.js';
import { generateKey } from '../../api/access/key-format.js';
import { buildSampleDataset } from '../../ingest/sample/build.js';
import { AnswerInProcess, describeInProcess, measureInChild } from '../../bench/answer-in-process.js';
import type { PointQuery } from '../../api/weather/service.js';

const dir = mkdtempSync(join(tmpdir(), 'mp-answer-in-process-'));
let app: FastifyInstance;
let base: string;
let key: string;
/** One instant for the app and the in-process answers: `valid_time` and the hour read are now's. */
const NOW = Date.now();
const clock = () => NOW;

// Inland, on a coast (marine fields), high in the Alps with alt=, San Marino (its 100 m grid), Sicily.
const POINTS: PointQuery[] = [
  { lat: 43.7696, lon: 11.2558 },
  { lat: 44.0594, lon: 12.5683 },
  { lat: 46.4, lon: 11.85, altM: 2100 },
  { lat: 43.9356, lon: 12.4473 },
  { lat: 37.5, lon: 14.1 },
];

beforeAll(async () => {
  const grid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
  await buildSampleDataset({ root: dir, hoursAhead: 6, nwpGrid: grid, demGrid: grid });
  const store = new FileKeyStore(keysFilePath(dir));
  const k = generateKey();
  await store.insert({ prefix: k.prefix, hash: k.hash, plan: 'business', kind: 'api', name: 'answer-in-process', created: new Date().toISOString() });
  await store.close();
  key = k.key;
  app = await buildApp({ dataDir: dir, clock, access: { env: { METEOPUNTO_DATA: dir } } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}, 180_000);
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A body without its `elapsed_ms`, the one value that differs from answer to answer. */
function withoutElapsed(text: string): Record<string, unknown> {
  const o = JSON.parse(text) as Record<string, unknown>;
  expect(typeof o.elapsed_ms).toBe('number');
  delete o.elapsed_ms;
  return o;
}

describe('the cold phase answer computed in process', () => {
  it("is weather.php's answer with a Business key, every product, at each point", async () => {
    const inProcess = new AnswerInProcess(dir, clock);
    for (const p of POINTS) {
      const query = `lat=${p.lat}&lon=${p.lon}${p.altM !== undefined ? `&alt=${p.altM}` : ''}`;
      const res = await fetch(`${base}/api/v1/weather.php?${query}`, { headers: { 'X-API-Key': key } });
      expect(res.status, query).toBe(200);
      const served = await res.text();
      const computed = (await inProcess.body(p)).toString('utf8');
      expect(withoutElapsed(computed), query).toEqual(withoutElapsed(served));
      // Every product of the sample answers somewhere: the coast's marine fields, the Developer indices.
      if (p === POINTS[1]) expect(served).toMatch(/"sea_surface_temperature"/);
      expect(served).toMatch(/"wbgt"/);
    }
  });

  it('times warm windows: the untimed pass loads what they read', async () => {
    const r = await new AnswerInProcess(dir, clock).measure(POINTS, 50);
    expect(r.loads).toBe(0);
    expect(r.randomRounds).toHaveLength(3);
    expect(r.onePointRounds).toHaveLength(3);
    for (const us of [...r.randomRounds, ...r.onePointRounds]) expect(us).toBeGreaterThan(0);
    expect(r.answers).toBe(50);
  });

  it('measures the same in a child process, which hands its figures back', async () => {
    const r = await measureInChild(dir, POINTS, 30);
    expect(r.loads).toBe(0);
    expect(r.answers).toBe(30);
    expect(r.randomRounds).toHaveLength(3);
    for (const us of [...r.randomRounds, ...r.onePointRounds]) expect(us).toBeGreaterThan(0);
  });
});

describe('the line the bench prints', () => {
  const a = { randomUs: 23.2, randomRounds: [23.7, 23.2, 22.1], onePointUs: 15.4, onePointRounds: [16.1, 15.4, 15.2], answers: 20_000, loads: 0 };
  it('gives what serving adds: the served CPU less the floor less the computation at the random points', () => {
    const line = describeInProcess(a, 68.2, 31.5);
    expect(line).toContain('23.2 µs of CPU per answer at the random points (rounds 23.7, 23.2, 22.1)');
    expect(line).toContain('15.4 at the first point (16.1, 15.4, 15.2)');
    expect(line).toContain('less this: 13.5 µs (what serving adds)');
    expect(line).not.toContain('loaded a block');
  });
  it('leaves the difference out without a served CPU (no /proc), and says when windows loaded blocks', () => {
    const line = describeInProcess({ ...a, loads: 7 }, undefined, 31.5);
    expect(line).not.toContain('what serving adds');
    expect(line).toContain('7 answers loaded a block inside the windows');
  });
});
