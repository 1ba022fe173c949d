/**
 * The world of the browser tests, built once for all of them: ONE Debian
 * Chromium (playwright-core), the API on one 127.0.0.1 port over the main
 * nwp fixture, a second API over the same fixture marked as sample data (the
 * "dati di esempio" notice every newcomer sees), and host pages on another
 * origin that embed the widget as docs/widget.md says. Keys and quotas live
 * in the real Redis of the test run.
 */
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { loadAccessConfig } from '../../../api/access/config.js';
import type { KeyKind, Plan } from '../../../api/access/contract.js';
import { generateKey } from '../../../api/access/key-format.js';
import { createAccessServices, type AccessServices } from '../../../api/access/services.js';
import { chromiumPresent, launchChromium, NO_CHROMIUM_REASON, type TestBrowser } from '../../support/browser.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp } from '../tile-fixture.js';
import { startHostServer, type HostServer } from './host-pages.js';
import type { WeatherBody } from './inspect.js';

/** 2024-06-21T10:30Z = 12:30 in Rome (CEST). */
export const NOW = T0_MS + 10.5 * HOUR_MS;
/** The fixture forecast's run: 2024-06-21T00:00Z, 02:00 in Rome. */
export const RUN_ISO = new Date(T0_MS).toISOString();
export const P = { lat: 43.123, lon: 11.2345, alt: 380 };

export interface BrowserEnv {
  /** The API over the fixture, and the same fixture labelled as sample data. */
  api: string;
  sampleApi: string;
  host: HostServer;
  browser: TestBrowser;
  keys: Record<string, string>;
  /** widget.php requests the (non-sample) server received, by URL. */
  served: Map<string, number>;
  weather(key: string, q: Record<string, number>): Promise<WeatherBody>;
  open(url: string): Promise<OpenPage>;
}

export interface OpenPage {
  page: Page;
  dialogs: string[];
  requests: string[];
  statuses: Map<string, { status: number; widgetStatus?: string }>;
}

/** Builds the world before the describe block's tests, tears it down after; the getter is valid inside tests. */
export function browserEnv(): () => BrowserEnv {
  const data = tempDataDir();
  const sampleData = tempDataDir();
  let services: AccessServices | undefined;
  const apps: FastifyInstance[] = [];
  let env: BrowserEnv | undefined;

  beforeAll(async () => {
    if (!chromiumPresent) throw new Error(`CI=true: ${NO_CHROMIUM_REASON}`);
    await writeMainNwp(data.dir, { run: RUN_ISO });
    await writeDem(data.dir);
    await writeMainNwp(sampleData.dir, { run: RUN_ISO, sample: true });
    await writeDem(sampleData.dir);
    // Business loads unlimited for the layout pages (hundreds of boxes); Free keeps its 2 a minute.
    const c = loadAccessConfig({ METEOPUNTO_QUOTA_BUSINESS_MINUTE: '1000000', METEOPUNTO_QUOTA_BUSINESS_DAY: '1000000' });
    services = await createAccessServices({
      env: { REDIS_URL: process.env.REDIS_URL, METEOPUNTO_DATA: data.dir },
      config: { ...c, flood: { refusedPerMinute: 100_000 } },
    });
    const host = await startHostServer();
    const keys: Record<string, string> = {};
    const issue = async (name: string, plan: Plan, kind: KeyKind, origins?: string[]) => {
      const { key, prefix, hash } = generateKey();
      await services!.keys.insert({ prefix, hash, plan, kind, name, created: new Date().toISOString(), ...(origins ? { origins } : {}) });
      keys[name] = key;
    };
    await issue('business', 'business', 'api');
    await issue('free', 'free', 'api');
    await issue('widget', 'business', 'widget', [host.origin]);
    await issue('widgetFree', 'free', 'widget', [host.origin]);
    await issue('elsewhere', 'business', 'widget', ['https://www.example.org']);
    const served = new Map<string, number>();
    const app = await buildApp({ dataDir: data.dir, access: { services }, clock: () => NOW });
    app.addHook('onRequest', async (req) => {
      if (req.url.startsWith('/api/v1/widget.php')) served.set(req.url, (served.get(req.url) ?? 0) + 1);
    });
    const sampleApp = await buildApp({ dataDir: sampleData.dir, access: { services }, clock: () => NOW });
    apps.push(app, sampleApp);
    const api = await app.listen({ port: 0, host: '127.0.0.1' });
    const sampleApi = await sampleApp.listen({ port: 0, host: '127.0.0.1' });
    const browser = await launchChromium();
    env = {
      api, sampleApi, host, browser, keys, served,
      async weather(key, q) {
        const r = await fetch(`${api}/api/v1/weather.php?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, { headers: { 'x-api-key': key } });
        expect(r.status).toBe(200);
        return (await r.json()) as WeatherBody;
      },
      async open(url) {
        const page = await browser.context.newPage();
        const dialogs: string[] = [];
        const requests: string[] = [];
        const statuses = new Map<string, { status: number; widgetStatus?: string }>();
        page.on('request', (r) => requests.push(r.url()));
        page.on('dialog', (d) => {
          dialogs.push(d.message());
          void d.dismiss();
        });
        page.on('response', (r) => {
          if (r.url().includes('/widget.php')) statuses.set(r.url(), { status: r.status(), widgetStatus: r.headers()['x-meteopunto-status'] });
        });
        await page.goto(url, { waitUntil: 'load' });
        return { page, dialogs, requests, statuses };
      },
    };
  });
  afterAll(async () => {
    await env?.browser.close();
    for (const a of apps) await a.close();
    await env?.host.close();
    await services?.close();
    data.cleanup();
    sampleData.cleanup();
  });
  return () => env!;
}
