/**
 * widget.php through app.inject() over the weather.php fixtures (real tile
 * stores, keys and quotas in the real Redis of the run): headers of both
 * modes, quota and widget-key rules, refusals, escaping in the raw bodies,
 * the sample-data notice. What the box looks like is test/api/widget/browser.test.ts.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { loadAccessConfig } from '../../../api/access/config.js';
import type { KeyKind, Plan } from '../../../api/access/contract.js';
import { generateKey } from '../../../api/access/key-format.js';
import { createAccessServices, type AccessServices } from '../../../api/access/services.js';
import { HOUR_MS, T0_MS, tempDataDir, writeBareNwp, writeDem, writeMainNwp } from '../tile-fixture.js';

const NOW = T0_MS + 10.5 * HOUR_MS; // 2024-06-21T10:30Z, 12:30 in Rome (CEST)
/** The forecast's run: 2024-06-21T00:00Z, 02:00 in Rome. */
const RUN_ISO = new Date(T0_MS).toISOString();
const P = 'lat=43.123&lon=11.2345&alt=380';
const SITE = 'https://www.comune.example.it';

describe('widget.php (inject, Redis)', () => {
  const data = tempDataDir();
  let services: AccessServices;
  let app: FastifyInstance;
  const keys: Record<string, string> = {};
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  async function issue(name: string, plan: Plan, kind: KeyKind, origins?: string[]): Promise<void> {
    const { key, prefix, hash } = generateKey();
    await services.keys.insert({ prefix, hash, plan, kind, created: new Date().toISOString(), ...(origins ? { origins } : {}) });
    keys[name] = key;
  }

  beforeAll(async () => {
    await writeMainNwp(data.dir, { run: RUN_ISO });
    await writeDem(data.dir);
    const c = loadAccessConfig({});
    services = await createAccessServices({ env: { REDIS_URL: process.env.REDIS_URL, METEOPUNTO_DATA: data.dir }, config: { ...c, flood: { refusedPerMinute: 100_000 } } });
    await issue('api', 'business', 'api');
    await issue('free', 'free', 'api');
    await issue('widget', 'free', 'widget', [SITE, 'https://meteo.example.org:8443']);
    await issue('anywhere', 'developer', 'widget');
    app = await buildApp({ dataDir: data.dir, access: { services }, clock: () => NOW });
  });
  afterAll(async () => {
    await app?.close();
    await services?.close();
    data.cleanup();
  });

  it('mode=js (default) is a script; mode=iframe a complete page that any page, or the key\'s sites only, may frame', async () => {
    const js = await get(`/api/v1/widget.php?${P}&key=${keys.api}`);
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toMatch(/^\/\* Meteopunto widget\.php/);
    expect(js.body).toContain('document.currentScript');
    expect(js.headers['cache-control']).toBe('private, max-age=600');
    expect(js.headers['set-cookie']).toBeUndefined();

    const page = await get(`/api/v1/widget.php?${P}&key=${keys.api}&mode=iframe`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toMatch(/^<!doctype html><html lang="it">/);
    expect(page.body).not.toContain('<script');
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(page.headers['content-security-policy']).not.toContain('frame-ancestors');

    const framed = await get(`/api/v1/widget.php?${P}&key=${keys.widget}&mode=iframe`, { referer: `${SITE}/meteo.html` });
    expect(framed.statusCode).toBe(200);
    expect(framed.headers['content-security-policy']).toContain(`frame-ancestors ${SITE} https://meteo.example.org:8443`);
    // The browser's Sec-Fetch-Dest picks the page form when mode is not given.
    const byDest = await get(`/api/v1/widget.php?${P}&key=${keys.anywhere}`, { 'sec-fetch-dest': 'iframe' });
    expect(byDest.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('a widget key\'s loads count against its own quota; on weather.php it gets 403 and uses none', async () => {
    const h = { referer: `${SITE}/` };
    const first = await get(`/api/v1/widget.php?${P}&key=${keys.widget}`, h);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('0'); // Free: 2 a minute; one left after the load in the test above
    const onWeather = await get(`/api/v1/weather.php?${P}`, { 'x-api-key': keys.widget! });
    expect(onWeather.statusCode).toBe(403);
    expect(onWeather.json().error.code).toBe('KEY_NOT_ALLOWED');
    const over = await get(`/api/v1/widget.php?${P}&key=${keys.widget}&mode=iframe`, h);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    expect(over.headers['cache-control']).toBe('no-store');
    expect(over.body).toContain('Limite di richieste della chiave raggiunto.');
  });

  it('refused loads use no quota: plan, parameters, origin', async () => {
    const before = Number((await get(`/api/v1/widget.php?${P}&key=${keys.free}`)).headers['x-ratelimit-remaining']);
    const sm = await get(`/api/v1/widget.php?lat=43.936&lon=12.447&key=${keys.free}&mode=iframe`);
    expect(sm.statusCode).toBe(403);
    expect(sm.body).toContain('Per San Marino serve il piano Developer.');
    const bad = await get(`/api/v1/widget.php?lat=43.1&lon=0x1f&key=${keys.free}&mode=iframe`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Coordinata non valida (lon).');
    const outside = await get(`/api/v1/widget.php?lat=30&lon=11&key=${keys.free}&mode=iframe`);
    expect(outside.statusCode).toBe(400);
    expect(outside.body).toContain("Il punto è fuori dall&#39;area coperta (Italia).");
    expect((await get(`/api/v1/widget.php?${P}&key=${keys.free}&theme=sepia`)).statusCode).toBe(400);
    expect((await get(`/api/v1/widget.php?${P}&key=${keys.free}&name=${'x'.repeat(501)}`)).statusCode).toBe(400);
    const noData = await get(`/api/v1/widget.php?lat=45.46&lon=9.19&key=${keys.api}&mode=iframe`);
    expect(noData.statusCode).toBe(404);
    expect(noData.body).toContain('Nessun dato meteo per questo punto.');
    const after = await get(`/api/v1/widget.php?${P}&key=${keys.free}&mode=iframe`);
    // Free: 2 a minute. The first load left 1; the refusals took none, so this second load is served and leaves 0.
    expect(before).toBe(1);
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('0');
    const other = await get(`/api/v1/widget.php?${P}&key=${keys.widget}`, { origin: 'https://evil.example' });
    expect(other.statusCode).toBe(403);
    expect(other.body).toContain('Questo sito non è autorizzato a usare la chiave del widget.');
  });

  it('js refusals: the error status for clients, 200 for a browser loading a script (the status in X-Meteopunto-Status)', async () => {
    const wrong = generateKey().key;
    const plain = await get(`/api/v1/widget.php?${P}&key=${wrong}`);
    expect(plain.statusCode).toBe(401);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['x-meteopunto-error']).toBe('INVALID_KEY');
    expect(plain.body).toContain("h.setAttribute('data-meteopunto-status','401')");
    expect(plain.body).toContain("console.warn('Meteopunto widget.php: 401 INVALID_KEY: API key not valid')");
    const script = await get(`/api/v1/widget.php?${P}&key=${wrong}`, { 'sec-fetch-dest': 'script' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['x-meteopunto-status']).toBe('401');
    expect(script.headers['cache-control']).toBe('no-store');
    expect(script.body).toBe(plain.body);
  });

  it('the box says when the forecast was made (its run, Rome time), with the valid time in the title; without a name, the coordinates', async () => {
    const page = (await get(`/api/v1/widget.php?${P}&key=${keys.api}&mode=iframe`)).body;
    expect(page).toContain('<span class="upd muted" title="valori per le 12:30, previsione delle 02:00">previsione delle 02:00</span>');
    expect(page).not.toContain('12:30</span>');
    // lat=43.123&lon=11.2345 to 0.01°, the Italian way, in the place's slot and the box's accessible name.
    expect(page).toContain('<span class="name t" title="coordinate del punto">43,12° N 11,23° E</span>');
    expect(page).toContain('aria-label="Meteo 43,12° N 11,23° E"');
    const compact = (await get(`/api/v1/widget.php?${P}&key=${keys.api}&mode=iframe&variant=compact`)).body;
    expect(compact).toContain('<span class="name t coords" title="coordinate del punto"><span>43,12° N</span> <span>11,23° E</span></span>');
  });

  it('a name is text: nothing in it reaches the markup or ends the script', async () => {
    const names = ['<img src=x onerror=alert(1)>', '</script><script>alert(1)</script>', `"'><svg onload=alert(1)>`, 'a\u2028b\u2029c'];
    for (const name of names) {
      const q = `${P}&key=${keys.api}&name=${encodeURIComponent(name)}`;
      const js = (await get(`/api/v1/widget.php?${q}`)).body;
      expect(js, name).not.toMatch(/<\/script|<!--/i); // nothing can end or hide the script, even inlined
      expect(js, name).not.toContain('<img'); // the label's '<' arrives as &lt;
      expect(js).not.toMatch(/[\u2028\u2029]/);
      const page = (await get(`/api/v1/widget.php?${q}&mode=iframe`)).body;
      expect(page).not.toContain('<img');
      expect(page).not.toContain('<svg onload');
      expect(page).not.toContain('</script>');
      expect(page.match(/<svg/g)?.length, name).toBe(2); // the icon and the wind arrow
    }
    const page = (await get(`/api/v1/widget.php?${P}&key=${keys.api}&mode=iframe&name=${encodeURIComponent(`"'><svg onload=alert(1)>`)}`)).body;
    expect(page).toContain('<span class="name t" title="&quot;&#39;&gt;&lt;svg onload=alert(1)&gt;">&quot;&#39;&gt;&lt;svg onload=alert(1)&gt;</span>');
  });
});

describe('widget.php over the labelled sample data', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await writeBareNwp(data.dir); // sample: true; no wind variables
    const env = { METEOPUNTO_DATA: data.dir };
    const services = await createAccessServices({ env });
    const { key, prefix, hash } = generateKey();
    await services.keys.insert({ prefix, hash, plan: 'free', kind: 'api', created: new Date().toISOString() });
    await services.close();
    app = await buildApp({ dataDir: data.dir, access: { env: { ...env, MP_FLOOD_REFUSED_PER_MINUTE: '3' } }, clock: () => NOW });
    (app as unknown as { key: string }).key = key;
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('says the data are sample data, and shows missing values as a dash', async () => {
    const key = (app as unknown as { key: string }).key;
    const r = await app.inject(`/api/v1/widget.php?lat=43.123&lon=11.2345&key=${key}&mode=iframe`);
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('>dati di esempio</span>');
    // 15 − 0.2·10.5 = 12.9 °C uncorrected (no grid elevation); no wind in this store
    expect(r.body).toContain('>12,9 °C</span>');
    expect(r.body).toContain('<span class="wind" title="vento">—</span>');
    // This store records no run: the time shown is the values' own, and says so.
    expect(r.body).toContain('>valori delle 12:30</span>');
  });

  it('js refusals sent as 200 to a script loader still count for the flood guard', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await app.inject({ url: `/api/v1/widget.php?lat=43.1&lon=11.2&key=${generateKey().key}`, headers: { 'sec-fetch-dest': 'script' } });
      expect(r.statusCode).toBe(200);
      codes.push(`${r.headers['x-meteopunto-status']} ${r.headers['x-meteopunto-error']}`);
    }
    expect(codes.slice(0, 3)).toEqual(Array(3).fill('401 INVALID_KEY'));
    expect(codes.slice(3)).toEqual(Array(2).fill('429 TOO_MANY_REQUESTS'));
  });
});
