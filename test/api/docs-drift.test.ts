/**
 * The manual cannot drift from the server (as test/config/drift.test.ts does
 * for configuration): docs/api.md's error table against the status and code
 * the server really sends for each case it describes, its field tables
 * against the fields each plan really receives, and the front page's list
 * of manual pages against docs/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { FileKeyStore, keysFilePath } from '../../api/access/key-store-file.js';
import { generateKey } from '../../api/access/key-format.js';
import type { Plan } from '../../api/access/contract.js';
import { STATUS_OF, type ApiErrorCode } from '../../api/errors.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp } from './tile-fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const API_MD = read('docs/api.md');

/** The lines of a markdown section, from its heading to the next heading of the same or a higher level. */
function section(md: string, heading: string): string {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`no section '${heading}'`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The first column of a section's table rows, as the backticked names it holds. */
function firstColumnNames(md: string): string[] {
  return md.split('\n').filter((l) => /^\| `/.test(l)).flatMap((l) => [...l.split('|')[1]!.matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]!));
}

interface ErrorRow { status: number; codes: string[]; when: string }
const ERROR_ROWS: ErrorRow[] = section(API_MD, 'Errors').split('\n').flatMap((l) => {
  const m = /^\| (\d{3}) \| ([^|]+) \| (.*) \|$/.exec(l);
  return m ? [{ status: Number(m[1]), codes: [...m[2]!.matchAll(/`([A-Z_]+)`/g)].map((c) => c[1]!), when: m[3]! }] : [];
});

describe('docs/api.md agrees with the server', () => {
  const data = tempDataDir();
  const empty = tempDataDir();
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let base: string;
  const keys = {} as Record<Plan, string>;

  beforeAll(async () => {
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    const issued = (['free', 'developer', 'business'] as const).map((plan) => ({ plan, ...generateKey() }));
    for (const dir of [data.dir, empty.dir]) {
      const store = new FileKeyStore(keysFilePath(dir));
      for (const k of issued) await store.insert({ prefix: k.prefix, hash: k.hash, plan: k.plan, kind: 'api', name: k.plan, created: new Date().toISOString() });
      await store.close();
    }
    for (const k of issued) keys[k.plan] = k.key;
    const env = (dir: string) => ({ env: { METEOPUNTO_DATA: dir, METEOPUNTO_QUOTA_FREE_MINUTE: '1000', METEOPUNTO_QUOTA_FREE_DAY: '1000', METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000' } });
    app = await buildApp({ dataDir: data.dir, access: env(data.dir), clock: () => T0_MS + 10 * HOUR_MS });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    bare = await buildApp({ dataDir: empty.dir, access: env(empty.dir) });
  });
  afterAll(async () => {
    await app?.close();
    await bare?.close();
    data.cleanup();
    empty.cleanup();
  });

  it('the error table gives each code the status the server maps it to', () => {
    expect(ERROR_ROWS.length).toBeGreaterThan(5);
    for (const row of ERROR_ROWS) for (const code of row.codes) expect(STATUS_OF[code as ApiErrorCode], `${row.status} ${code}`).toBe(row.status);
  });

  const W = '/api/v1/weather.php?lat=43.1&lon=11.2';
  /** Each case the table describes: a request, and a word the row of its status and code must hold. */
  const CASES: Array<{ what: string; word: RegExp; send: () => Promise<{ status: number; code: string }> }> = [
    { what: 'a parameter out of range', word: /out of range/, send: () => inject(app, 'GET', `/api/v1/weather.php?lat=91&lon=11`) },
    { what: 'a URL that is not valid percent-encoding', word: /percent-encoding/, send: () => inject(app, 'GET', '/%zz') },
    { what: 'coordinates no product covers', word: /no product covers/, send: () => inject(app, 'GET', '/api/v1/weather.php?lat=36&lon=15') },
    { what: 'a time= outside the data', word: /`time=` outside the data/, send: () => inject(app, 'GET', `${W}&time=2030-01-01T00:00`) },
    { what: 'an unknown endpoint', word: /unknown endpoint/, send: () => inject(app, 'GET', '/api/v2/weather.php') },
    { what: 'HEAD on weather.php', word: /`HEAD` on weather\.php/, send: () => inject(app, 'HEAD', W) },
    { what: 'another method on weather.php', word: /method/, send: () => inject(app, 'POST', W) },
    { what: 'no data published', word: /no nwp data published/, send: () => inject(bare, 'GET', W) },
    {
      what: 'a request line over 16 KiB',
      word: /over 16 KiB/,
      send: async () => {
        const r = await fetch(`${base}/api/v1/weather.php?lat=43.1&lon=11.2&pad=${'x'.repeat(17 * 1024)}`);
        return { status: r.status, code: ((await r.json()) as { error: { code: string } }).error.code };
      },
    },
  ];
  async function inject(a: FastifyInstance, method: 'GET' | 'HEAD' | 'POST', url: string): Promise<{ status: number; code: string }> {
    const r = await a.inject({ method, url, headers: { 'x-api-key': keys.business } });
    // A HEAD answer has no body: its code is the one a GET of the same kind would carry, taken from the table by status.
    const code = method === 'HEAD' ? (ERROR_ROWS.find((row) => row.status === r.statusCode && row.when.includes('HEAD'))?.codes[0] ?? '?') : (r.json() as { error: { code: string } }).error.code;
    return { status: r.statusCode, code };
  }

  it.each(CASES.map((c) => [c.what, c] as const))('%s: the row of the status and code the server sends says so', async (_what, c) => {
    const got = await c.send();
    const rows = ERROR_ROWS.filter((r) => r.status === got.status && r.codes.includes(got.code));
    expect(rows.map((r) => `${r.status} ${r.codes.join(',')}`), `${c.what}: server sent ${got.status} ${got.code}`).toHaveLength(1);
    expect(rows[0]!.when, `${c.what}: the ${got.status} ${got.code} row`).toMatch(c.word);
  });

  async function fieldsOf(plan: Plan): Promise<Set<string>> {
    const r = await app.inject({ url: W, headers: { 'x-api-key': keys[plan] } });
    expect(r.statusCode).toBe(200);
    return new Set(Object.keys(r.json() as object));
  }
  const minus = (a: Set<string>, b: Set<string>) => [...a].filter((f) => !b.has(f)).sort();

  it('the Free fields table lists exactly what a Free key receives', async () => {
    expect(firstColumnNames(section(API_MD, 'Response (Free fields)')).sort()).toEqual([...(await fieldsOf('free'))].sort());
  });

  it('the Developer fields table lists exactly what a Developer key receives beyond Free', async () => {
    const developer = minus(await fieldsOf('developer'), await fieldsOf('free'));
    expect(developer).toContain('air_quality');
    expect(firstColumnNames(section(API_MD, 'Response (Developer fields)')).sort()).toEqual(developer);
  });

  it('the Business section names exactly what a Business key receives beyond Developer', async () => {
    const business = minus(await fieldsOf('business'), await fieldsOf('developer'));
    const named = [...section(API_MD, 'Response (Business fields)').matchAll(/^`([a-z_]+)` \(group/gm)].map((m) => m[1]!).sort();
    expect(named).toEqual(business);
  });
});

describe('the front page and the manual', () => {
  const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');

  it('README.md and docs/README.md link every page of docs/', () => {
    const readme = read('README.md');
    const index = read('docs/README.md');
    expect(pages.filter((p) => !readme.includes(`(docs/${p})`))).toEqual([]);
    expect(pages.filter((p) => !index.includes(`(${p})`))).toEqual([]);
  });

  it('no page points the reader to a document outside the repository', () => {
    for (const p of ['README.md', ...pages.map((f) => `docs/${f}`)]) {
      const text = read(p);
      expect(text, p).not.toMatch(/DESIGN\.md|interface[- ]spec|the spec\b|spec's/i);
    }
  });
});
