/**
 * The fuzzer driven by the API document (what Schemathesis does,
 * with fast-check): requests to weather.php and widget.php generated from the
 * document's own parameter schemas, valid and invalid (./openapi-cases.ts),
 * with a Business, a Free and a widget key and none, placed as the
 * operation's security schemes say, sent to a real HTTP server over the
 * labelled sample dataset (the real ingest path). Every answer must be below
 * 500, carry a status the document lists for the operation, a content type
 * it lists for that status, and a body valid against the listed schema
 * (Ajv, JSON Schema 2020-12); widget.php's media type must also follow the
 * mode asked for. The seed is fixed (FUZZ_SEED overrides it) and printed
 * with the counts; the runs are bounded (FUZZ_RUNS per operation).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { FileKeyStore, keysFilePath } from '../../../api/access/key-store-file.js';
import { generateKey } from '../../../api/access/key-format.js';
import { buildSampleDataset } from '../../../ingest/sample/build.js';
import { cases, type Case, type Parameter, type SecurityScheme } from './openapi-cases.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const WIDGET_ORIGIN = 'https://embed.example.org';

interface Operation {
  parameters: Parameter[];
  security: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
interface Document {
  paths: Record<string, { get: Operation }>;
  components: { securitySchemes: Record<string, SecurityScheme> };
}

const dir = mkdtempSync(join(tmpdir(), 'mp-fuzz-'));
let app: FastifyInstance;
let base: string;
let doc: Document;
const keys: Record<'business' | 'free' | 'widget', string> = { business: '', free: '', widget: '' };

beforeAll(async () => {
  const grid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
  await buildSampleDataset({ root: dir, hoursAhead: 6, nwpGrid: grid, demGrid: grid });
  const store = new FileKeyStore(keysFilePath(dir));
  for (const [name, plan, kind] of [['business', 'business', 'api'], ['free', 'free', 'api'], ['widget', 'free', 'widget']] as const) {
    const k = generateKey();
    await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind, name: `fuzz ${name}`, created: new Date().toISOString(), ...(kind === 'widget' ? { origins: [WIDGET_ORIGIN] } : {}) });
    keys[name] = k.key;
  }
  await store.close();
  // Quotas and the flood guard out of the way: the cases should reach the checks behind them (429 has its own tests).
  const high = { METEOPUNTO_QUOTA_FREE_MINUTE: '1000000', METEOPUNTO_QUOTA_FREE_DAY: '1000000', METEOPUNTO_QUOTA_BUSINESS_MINUTE: '1000000', METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000000' };
  app = await buildApp({ dataDir: dir, env: {}, access: { env: { METEOPUNTO_DATA: dir, ...high } } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as Document;
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ajv = new Ajv2020({ strict: false, allErrors: true });
const compiled = new Map<object, ValidateFunction>();
const validatorOf = (schema: object) => compiled.get(schema) ?? compiled.set(schema, ajv.compile(schema)).get(schema)!;

/** The response the document lists for `status`: the code itself, else its class (`2XX`), else `default`. */
function listed(op: Operation, status: number) {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

/** What is wrong with an answer by the document ('' when nothing). */
function check(op: Operation, status: number, contentType: string, body: string): string {
  if (status >= 500) return `a ${status}`;
  const r = listed(op, status);
  if (!r) return `status ${status} is not in the document (it lists ${Object.keys(op.responses).join(', ')})`;
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  const content = r.content ?? {};
  if (!(media in content)) return `${status} as '${media}', the document lists ${Object.keys(content).join(', ') || 'no body'}`;
  let value: unknown = body;
  if (media === 'application/json') {
    try {
      value = JSON.parse(body);
    } catch {
      return `${status} ${media} body is not JSON`;
    }
  }
  const validate = validatorOf(content[media]!.schema);
  return validate(value) ? '' : `${status} ${media} body does not match its schema: ${ajv.errorsText(validate.errors)}`;
}

/** The media type widget.php must answer for the mode asked (its `mode` parameter's description). */
function widgetMedia(c: Case): string | undefined {
  const modes = c.query.filter(([n]) => n === 'mode').map(([, v]) => v);
  const mode = modes.length === 1 && (modes[0] === 'js' || modes[0] === 'iframe') ? modes[0] : undefined;
  const dest = c.headers['sec-fetch-dest'];
  if (mode === 'iframe' || (mode === undefined && (dest === 'iframe' || dest === 'frame'))) return 'text/html';
  return 'text/javascript';
}

/** `keys`: the keys to draw from (a key listed twice is drawn twice as often), null for none. */
async function fuzz(path: string, keyDraw: readonly (string | null)[], extraHeaders: Record<string, readonly (string | null)[]>): Promise<Map<number, number>> {
  const op = doc.paths[path]!.get;
  const schemes = op.security.map((alt) => doc.components.securitySchemes[Object.keys(alt)[0]!]!);
  const statuses = new Map<number, number>();
  const property = fc.asyncProperty(cases(op.parameters, schemes, keyDraw, extraHeaders), async (c) => {
    const url = `${base}${path}?${new URLSearchParams(c.query).toString()}`;
    const res = await fetch(url, { headers: c.headers, redirect: 'manual' });
    const body = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const problem = check(op, res.status, res.headers.get('content-type') ?? '', body);
    const media = res.headers.get('content-type')?.split(';')[0];
    const modeProblem = path.endsWith('widget.php') && res.status !== 405 && media !== widgetMedia(c) ? `answered ${media} for mode ${widgetMedia(c)}` : '';
    if (problem || modeProblem) throw new Error(`${problem || modeProblem}\n  GET ${url}\n  headers ${JSON.stringify(c.headers)}\n  body ${body.slice(0, 300)}`);
  });
  await fc.assert(property, { seed: SEED, numRuns: RUNS });
  return statuses;
}

const summary = (m: Map<number, number>) => [...m.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${n} × ${s}`).join(', ');

describe(`fuzz from the API document (seed ${SEED}, ${RUNS} cases per operation; FUZZ_SEED, FUZZ_RUNS)`, () => {
  it('weather.php: every answer is listed by the document, with its content type and schema', async () => {
    // Business thrice as often: its answers carry every field group, the most for the 200 schema to check.
    const statuses = await fuzz('/api/v1/weather.php', [keys.business, keys.business, keys.business, keys.free, keys.widget, null], {});
    console.log(`fuzz weather.php, seed ${SEED}: ${summary(statuses)}`);
    // The draw reaches both sides: answers and refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 25);
    expect([400, 401, 403].every((s) => (statuses.get(s) ?? 0) > 0)).toBe(true);
  });

  it('widget.php: every answer is listed by the document, with its content type and schema', async () => {
    const statuses = await fuzz('/api/v1/widget.php', [keys.business, keys.free, keys.widget, keys.widget, null], { origin: [WIDGET_ORIGIN, 'https://elsewhere.example', null], 'sec-fetch-dest': ['script', 'iframe', null] });
    console.log(`fuzz widget.php, seed ${SEED}: ${summary(statuses)}`);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 25);
    expect([400, 401, 403].every((s) => (statuses.get(s) ?? 0) > 0)).toBe(true);
  });
});
