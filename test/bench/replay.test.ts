/**
 * The floor server replays an answer byte for byte: weather.php's and
 * widget.php's answers, captured over a raw socket from the real app, come
 * back from the access layer + replay route (bench/servers.ts
 * buildAccessApp) identical but for the headers Node writes itself and each
 * server's own `elapsed_ms`.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../api/app.js';
import { createAccessServices, type AccessServices } from '../../api/access/services.js';
import { benchAccessEnv, createBenchKey } from '../../bench/api-key.js';
import { floorPath } from '../../bench/floor.js';
import { ACCESS_OWN_HEADERS, captureRaw, ELAPSED_SLOT, withElapsedSlot, NODE_OWN_HEADERS, parseCapturedAnswer, type ReplayRoute } from '../../bench/replay.js';
import { buildAccessApp } from '../../bench/servers.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp } from '../api/tile-fixture.js';

/** The raw answer less Node's own header lines (framing, date, keep-alive), everything else as sent but each server's own `elapsed_ms`. */
function withoutNodeOwn(raw: Buffer): string {
  const text = raw.toString('latin1').replace(/"elapsed_ms":[0-9.]+ */, '"elapsed_ms":(own)');
  const split = text.indexOf('\r\n\r\n');
  const lines = text.slice(0, split).split('\r\n');
  return [...lines.filter((l, i) => i === 0 || !NODE_OWN_HEADERS.has(l.slice(0, l.indexOf(':')).toLowerCase())), '', text.slice(split + 4)].join('\r\n');
}

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describe('the floor server: a captured answer replayed behind the access layer', () => {
  const data = tempDataDir();
  const services: AccessServices[] = [];
  const apps: FastifyInstance[] = [];
  /** A key per answer: each server's first answer with it has the same quota left. */
  const keys: Record<string, string> = {};
  let weatherBase = '';
  const WEATHER = '/api/v1/weather.php?lat=43.1230&lon=11.2210';
  const WIDGET = '/api/v1/widget.php?lat=43.1230&lon=11.2210&name=Firenze';

  beforeAll(async () => {
    // Rate-limit headers carry the seconds to the window's end: the same instant for both servers' answers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0_MS + 10 * HOUR_MS + 12_345);
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    for (const e of ['weather', 'widget']) keys[e] = await createBenchKey(data.dir, 'business');
    const s = await createAccessServices({ env: benchAccessEnv(data.dir, {}), cacheKeys: true });
    services.push(s);
    const app = await buildApp({ dataDir: data.dir, env: benchAccessEnv(data.dir, {}), access: { services: s }, clock: () => T0_MS + 10 * HOUR_MS });
    apps.push(app);
    weatherBase = await listen(app);
  });

  afterAll(async () => {
    for (const a of apps) await a.close();
    for (const s of services) await s.close();
    vi.useRealTimers();
    data.cleanup();
  });

  /** A fresh floor server (its own in-memory quotas, so its first answer's rate-limit headers are the app's first answer's) replaying `route`. */
  async function floorServer(route: ReplayRoute): Promise<string> {
    const s = await createAccessServices({ env: benchAccessEnv(data.dir, {}), cacheKeys: true });
    services.push(s);
    const app = await buildAccessApp(s, [route]);
    apps.push(app);
    return listen(app);
  }

  for (const [what, path, endpoint] of [['weather.php', WEATHER, 'weather'], ['widget.php', WIDGET, 'widget']] as const) {
    it(`sends ${what}'s captured answer byte for byte, Node's own headers aside, the rate-limit headers once and in place`, async () => {
      const key = keys[endpoint]!;
      const captured = await captureRaw(weatherBase, path, key);
      expect(captured.toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      const answer = parseCapturedAnswer(captured);
      // The access layer's headers are the floor server's own to set: not in what the route replays.
      expect(answer.headers.map(([n]) => n).filter((n) => ACCESS_OWN_HEADERS.has(n))).toEqual([]);
      expect(answer.bytes).toBe(captured.length);
      const route: ReplayRoute = { path: floorPath('business', endpoint === 'widget'), endpoint, answer };
      const replayed = await captureRaw(await floorServer(route), `${route.path}?lat=43.1230&lon=11.2210`, key);
      expect(withoutNodeOwn(replayed)).toBe(withoutNodeOwn(captured));
      // The comparison covered something: a body of the real answer and each rate-limit header exactly once.
      const text = withoutNodeOwn(replayed);
      expect(text).toContain(endpoint === 'weather' ? '"temperature"' : 'Firenze');
      for (const h of ACCESS_OWN_HEADERS) expect(text.split(`\r\n${h}: `)).toHaveLength(2);
      if (endpoint === 'weather') {
        // The floor's own elapsed_ms, a number in a slot of fixed width: the body is JSON still, one slot longer at most.
        const body = replayed.subarray(replayed.indexOf('\r\n\r\n') + 4);
        const { elapsed_ms } = JSON.parse(body.toString('utf8')) as { elapsed_ms: unknown };
        expect(typeof elapsed_ms).toBe('number');
        expect(elapsed_ms).toBeGreaterThanOrEqual(0);
        expect(elapsed_ms).toBeLessThan(1000);
        expect(body.toString('latin1')).toMatch(new RegExp(`"elapsed_ms":[0-9.]+ *[,}]`));
        expect(/"elapsed_ms":([0-9.]+ *)/.exec(body.toString('latin1'))![1]).toHaveLength(ELAPSED_SLOT);
      }
    });
  }

  it('refuses to take anything but a 200 as an answer to replay', async () => {
    const refused = await captureRaw(weatherBase, WEATHER, 'mp_notakeyatall0000000000000000000000000000');
    expect(() => parseCapturedAnswer(refused)).toThrow(/expected a 200 answer, got "HTTP\/1.1 401/);
  });
});

describe("the replay's elapsed_ms slot", () => {
  it('blanks the number where it stands, whatever its length, and leaves a body without one alone', () => {
    for (const n of ['0.012', '12.5', '0', '1e-7']) {
      const body = Buffer.from(`{"temperature":21.4,"elapsed_ms":${n},"city":"Forlì"}`, 'utf8');
      const slot = withElapsedSlot(body)!;
      const text = slot.template.toString('utf8');
      expect(text).toBe(`{"temperature":21.4,"elapsed_ms":${' '.repeat(ELAPSED_SLOT)},"city":"Forlì"}`);
      expect(slot.template.subarray(slot.at, slot.at + ELAPSED_SLOT).toString('latin1')).toBe(' '.repeat(ELAPSED_SLOT));
    }
    expect(withElapsedSlot(Buffer.from('<div>Firenze</div>'))).toBeUndefined();
  });
});
