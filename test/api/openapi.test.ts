/**
 * The API document (/api/v1/openapi.json) against the code: the document is
 * valid OpenAPI 3.1 (checked by @seriousme/openapi-schema-validator, not by
 * the generator), and live answers of a real server over the sample data —
 * weather.php for each plan, and its 400, 401, 403, 404 and 429 refusals —
 * validate against the document's own schemas (Ajv, JSON Schema 2020-12),
 * so the document cannot drift from what the server sends. @apidevtools/
 * swagger-parser validates it too. widget.php's answers
 * (text/html, text/javascript; its refusals; 405 in JSON) and weather.php's
 * 405 are described with their content types, `fields` is a list of the
 * allowed groups, the 200 answers have a description and weather.php's a
 * real example. /docs is served without any other host (its CSP in
 * Chromium: openapi-docs-page.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { FileKeyStore, keysFilePath } from '../../api/access/key-store-file.js';
import { generateKey } from '../../api/access/key-format.js';
import type { Plan } from '../../api/access/contract.js';
import { buildSampleDataset } from '../../ingest/sample/build.js';
import { FIELD_GROUPS } from '../../api/fields/registry.js';

interface OpenApiDoc {
  info: { version: string };
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
  paths: Record<string, { get: { parameters: Array<{ name: string; description?: string; schema?: object; style?: string; explode?: boolean }>; responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: object; example?: unknown }> }> } }>;
}

const dir = mkdtempSync(join(tmpdir(), 'mp-openapi-'));
const keys: Partial<Record<Plan, string>> = {};
let app: FastifyInstance;
let base: string;
let doc: OpenApiDoc;

beforeAll(async () => {
  const grid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
  await buildSampleDataset({ root: dir, hoursAhead: 6, nwpGrid: grid, demGrid: grid });
  const store = new FileKeyStore(keysFilePath(dir));
  for (const plan of ['free', 'developer', 'business'] as const) {
    const k = generateKey();
    await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind: 'api', name: `openapi ${plan}`, created: new Date().toISOString() });
    keys[plan] = k.key;
  }
  await store.close();
  app = await buildApp({ dataDir: dir, access: { env: { METEOPUNTO_DATA: dir, METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '100000' } } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as OpenApiDoc;
}, 120_000);
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ajv = new Ajv2020({ strict: false, allErrors: true });
function schemaOf(path: string, status: number): object {
  const r = doc.paths[path]!.get.responses[String(status)];
  const schema = r?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the document has no JSON schema for ${path} ${status}`);
  return schema;
}
function errorsAgainst(path: string, status: number, body: unknown): string {
  const validate = ajv.compile(schemaOf(path, status));
  return validate(body) ? '' : ajv.errorsText(validate.errors);
}

async function weather(query: string, key?: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${base}/api/v1/weather.php?${query}${key ? `&api_key=${key}` : ''}`);
  return { status: r.status, body: await r.json() };
}

describe('the API document', () => {
  it('is valid OpenAPI 3.1, version 2.0, and describes every weather.php parameter', async () => {
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(doc.info.version).toBe('2.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/weather.php', '/api/v1/widget.php', '/healthz']));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/admin') || p.startsWith('/metrics'))).toBe(false);
    const params = doc.paths['/api/v1/weather.php']!.get.parameters;
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(['lat', 'lon', 'alt', 'time', 'fields']));
    for (const p of params) expect(p.description, p.name).toBeTruthy();
    // The key is a security scheme (query api_key or X-API-Key), not a parameter.
    expect(doc.components.securitySchemes.apiKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'api_key' });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('describes the answer of each plan as the server sends it', async () => {
    // Naples' gulf: inside the sample's marine and cams stores, so a Business answer has every group.
    for (const plan of ['free', 'developer', 'business'] as const) {
      const r = await weather('lat=40.80&lon=14.20', keys[plan]);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(errorsAgainst('/api/v1/weather.php', 200, r.body), plan).toBe('');
    }
    // The check can fail: a field of the wrong type is refused.
    const r = await weather('lat=40.80&lon=14.20', keys.business);
    expect(errorsAgainst('/api/v1/weather.php', 200, { ...(r.body as object), temperature: '12' })).not.toBe('');
  });

  it('describes each refusal with its code', async () => {
    const cases: Array<[number, string, string | undefined, string]> = [
      [400, 'lat=91&lon=12', keys.free, 'INVALID_PARAMETER'],
      [401, 'lat=41.9&lon=12.5', undefined, 'MISSING_KEY'],
      [401, 'lat=41.9&lon=12.5', 'mp_notakeyatall', 'INVALID_KEY'],
      [403, 'lat=41.9&lon=12.5&fields=coastal', keys.developer, 'PLAN_REQUIRED'],
      [404, 'lat=41.9&lon=12.5&time=2031-01-01T00:00Z', keys.business, 'NOT_FOUND'],
    ];
    for (const [status, query, key, code] of cases) {
      const r = await weather(query, key);
      expect(r.status, `${query}: ${JSON.stringify(r.body)}`).toBe(status);
      expect((r.body as { error: { code: string } }).error.code).toBe(code);
      expect(errorsAgainst('/api/v1/weather.php', status, r.body), query).toBe('');
    }
    // Free: 2 requests a minute, the third is refused (the first two were used by the tests above and below).
    let last = { status: 0, body: {} as unknown };
    for (let i = 0; i < 3 && last.status !== 429; i++) last = await weather('lat=41.9&lon=12.5', keys.free);
    expect(last.status).toBe(429);
    expect(errorsAgainst('/api/v1/weather.php', 429, last.body)).toBe('');
  });

  it('every answer of weather.php and widget.php is described, with its content type', async () => {
    const weatherR = doc.paths['/api/v1/weather.php']!.get.responses;
    const widgetR = doc.paths['/api/v1/widget.php']!.get.responses;
    expect(Object.keys(weatherR).sort()).toEqual(['200', '400', '401', '403', '404', '405', '429', '500', '503']);
    expect(Object.keys(widgetR).sort()).toEqual(['200', '400', '401', '403', '404', '405', '429', '500', '503']);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [status, r] of Object.entries(item.get.responses)) expect(r.description, `${path} ${status}`).not.toBe('Default Response');
    }
    for (const status of ['200', '400', '401', '403', '404', '429', '503']) {
      expect(Object.keys(widgetR[status]!.content!).sort(), status).toEqual(['text/html', 'text/javascript']);
    }
    expect(Object.keys(widgetR['405']!.content!)).toEqual(['application/json']);
    expect(widgetR['405']!.headers).toHaveProperty('Allow');
    // Live answers carry the listed media type, for each mode and for a refusal.
    const live: Array<[string, string, number]> = [
      [`lat=40.80&lon=14.20&mode=iframe&key=${keys.business}`, 'text/html', 200],
      [`lat=40.80&lon=14.20&mode=js&key=${keys.business}`, 'text/javascript', 200],
      [`lat=99&lon=14.20&mode=iframe&key=${keys.business}`, 'text/html', 400],
      ['lat=40.80&lon=14.20&mode=js', 'text/javascript', 401],
    ];
    for (const [query, type, status] of live) {
      const r = await fetch(`${base}/api/v1/widget.php?${query}`);
      expect(r.status, query).toBe(status);
      expect(r.headers.get('content-type')!.split(';')[0]).toBe(type);
      expect(Object.keys(widgetR[String(status)]!.content!)).toContain(type);
    }
    for (const path of ['/api/v1/weather.php', '/api/v1/widget.php']) {
      const head = await fetch(`${base}${path}?lat=40.80&lon=14.20&api_key=${keys.business}`, { method: 'HEAD' });
      expect(head.status).toBe(405);
      const post = await fetch(`${base}${path}?lat=40.80&lon=14.20`, { method: 'POST' });
      expect(post.status).toBe(405);
      const validate = ajv.compile(schemaOf(path, 405));
      expect(validate(await post.json()), ajv.errorsText(validate.errors)).toBe(true);
    }
  });

  it('fields is a comma list of the allowed groups, each of which a Business key gets', async () => {
    const fields = doc.paths['/api/v1/weather.php']!.get.parameters.find((p) => p.name === 'fields')!;
    expect(fields).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', items: { type: 'string', enum: [...FIELD_GROUPS] } } });
    for (const g of FIELD_GROUPS) expect((await weather(`lat=40.80&lon=14.20&fields=${g}`, keys.business)).status, g).toBe(200);
    expect((await weather(`lat=40.80&lon=14.20&fields=${FIELD_GROUPS.join(',')}`, keys.business)).status).toBe(200);
    expect((await weather('lat=40.80&lon=14.20&fields=weather', keys.business)).status).toBe(400);
  });

  it("weather.php's 200 example is a real answer: it validates and has a live Business answer's fields", async () => {
    const example = doc.paths['/api/v1/weather.php']!.get.responses['200']!.content!['application/json']!.example as Record<string, unknown>;
    expect(example).toBeTypeOf('object');
    expect(errorsAgainst('/api/v1/weather.php', 200, example)).toBe('');
    const r = await weather('lat=40.80&lon=14.20', keys.business);
    // The same fields, and the same fields inside each group (values, and nulls, change with the hour).
    const live = r.body as Record<string, unknown>;
    expect(Object.keys(example).sort()).toEqual(Object.keys(live).sort());
    const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';
    for (const [k, v] of Object.entries(example)) {
      if (isObject(v) && isObject(live[k])) expect(Object.keys(v).sort(), k).toEqual(Object.keys(live[k]).sort());
    }
    const widgetExample = doc.paths['/api/v1/widget.php']!.get.responses['200']!.content!['text/html']!.example;
    expect(widgetExample).toMatch(/^<!doctype html>/);
  });

  it('/docs shows the document with nothing from another host', async () => {
    const page = await fetch(`${base}/docs/static/index.html`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/swagger-ui/);
    expect(html).not.toMatch(/(src|href)=["']https?:\/\//);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(page.headers.get('content-security-policy')).not.toMatch(/https:|validator\.swagger\.io/);
  });
});
