/**
 * The log-grep test: every line a real `meteopunto serve` process
 * writes (JSON log at debug level, stdout and stderr) while every route is
 * asked with every secret the test created — a Business key, a widget key,
 * the operator token — placed every way a client may place it (a key
 * parameter in any spelling or case, percent-encoded name and value,
 * repeated, in the path, X-API-Key, Authorization Bearer and Basic, cookies,
 * a malformed URL, another method), plus what the CLI prints when its
 * arguments or environment quote a secret (a key, the operator token, a
 * REDIS_URL password, a provider key in the environment). No secret may
 * appear in any encoding ../../support/secret-leaks.ts looks for: as
 * written, any case, percent-encoded, JSON escapes, base64 at any alignment
 * (Basic credentials, logged buffers), hex. For a key, the secret is what
 * follows its public prefix (the prefix is logged on purpose). `keys create`
 * prints its new key on purpose and is not collected.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreated, REPO, startApiProcess, withSampleTiles, type ApiProcess } from '../access/fixtures/api-process.js';
import { leaksOf } from '../../support/secret-leaks.js';

const ADMIN_TOKEN = 'opTok-7c1e9f4b2a6d8e0c3f5a-admin';
const ADS_KEY = 'ads-5f0c2e9a-71b4-4d3e-9c8a-6b2f1e0d7a93';
const REDIS_PASSWORD = 'rEd1s-pA55-w0rd-8e2c';
const POINT = 'lat=45.46&lon=9.19';
const ROUTES = ['/', '/healthz', '/api/v1/weather.php', '/api/v1/widget.php', '/api/v1/openapi.json', '/docs', '/admin/queues', '/admin/queues/api/queues', '/metrics', '/nowhere'];

/** `meteopunto <args>` from dist/ (built by `npm test`; faster to start than tsx). */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(REPO, 'dist/cli/main.js'), ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      done({ code: err ? ((err as { code?: unknown }).code as number) ?? 1 : 0, stdout, stderr });
    });
  });
}

const encodeAll = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const b64 = (s: string) => Buffer.from(s).toString('base64');

interface Ask {
  path: string;
  method?: string;
  headers?: Record<string, string>;
}

/** Every way a client may send secret `s` to `route`. */
function asks(route: string, s: string): Ask[] {
  const q = route.endsWith('.php') ? `${POINT}&` : '';
  const names = ['api_key', 'key', 'token', 'API_KEY', 'Key', 'TOKEN', 'api-key', 'apikey', 'access_token', 'password'];
  return [
    ...names.map((n) => ({ path: `${route}?${q}${n}=${s}` })),
    { path: `${route}?${q}api_k%65y=${encodeAll(s)}` },
    { path: `${route}?${q}t%6Fken=${encodeAll(s)}` },
    { path: `${route}?${q}api_key=${s}&api_key=${s}` },
    { path: `${route}/${s}` },
    { path: `/${encodeURIComponent(s)}?${q}` },
    { path: `${route}?${q}`, headers: { 'x-api-key': s } },
    { path: `${route}?${q}`, headers: { authorization: `Bearer ${s}` } },
    { path: `${route}?${q}`, headers: { authorization: `Basic ${b64(`operator:${s}`)}` } },
    { path: `${route}?${q}`, headers: { cookie: `mp_admin=${s}; api_key=${s}` } },
    { path: `${route}?${q}x=%zz&api_key=${s}` },
    { path: `${route}?${q}api_key=${s}`, method: 'POST' },
    { path: `${route}?${q}api_key=${s}`, method: 'HEAD' },
  ];
}

describe('no secret in any log line or CLI message, in any encoding', () => {
  const env: NodeJS.ProcessEnv = {
    REDIS_URL: process.env.REDIS_URL,
    METEOPUNTO_DATA: '',
    METEOPUNTO_ADMIN_TOKEN: ADMIN_TOKEN,
    METEOPUNTO_ADS_KEY: ADS_KEY,
    METEOPUNTO_QUEUE_PREFIX: `mpsecrets-${process.pid}`,
    METEOPUNTO_LOG_FORMAT: 'json',
    LOG_LEVEL: 'debug',
    METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000000',
    METEOPUNTO_QUOTA_BUSINESS_MINUTE: '1000000',
    METEOPUNTO_QUOTA_FREE_MINUTE: '1000000',
  };
  let api: ApiProcess;
  const keys: string[] = [];
  const cliOutput: string[] = [];

  beforeAll(async () => {
    env.METEOPUNTO_DATA = await withSampleTiles('mp-secrets-');
    for (const args of [['--plan', 'business'], ['--plan', 'free', '--widget', '--origins', 'https://embed.example.org']]) {
      const r = await runCli(['keys', 'create', ...args], env);
      expect(r.code, r.stderr).toBe(0);
      keys.push(parseCreated(r.stdout).key);
      cliOutput.push(r.stderr); // its stdout shows the new key on purpose
    }
    api = await startApiProcess(env);
  });
  afterAll(async () => {
    await api?.stop();
  });

  /** Each secret with the part that must never show: a key's secret after its public prefix. */
  const secrets = () => [
    ...keys.map((k, i) => ({ name: i === 0 ? 'Business key' : 'widget key', value: k, mustHide: k.slice(11) })),
    { name: 'operator token', value: ADMIN_TOKEN, mustHide: ADMIN_TOKEN },
  ];

  it('the detector finds a secret in each encoding it looks for', () => {
    const s = 'Zq9-secret-8Hx2';
    for (const [text, enc] of [
      [`x ${s} y`, 'raw'],
      [`x ${s.toUpperCase()} y`, 'any case'],
      [`a=${encodeURIComponent(encodeAll(s))}`, 'percent-encoded'],
      [`"${[...s].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('')}"`, 'JSON escapes'],
      [`Basic ${b64(`u:${s}`)}`, 'base64'],
      [`Basic ${b64(`uu:${s}`).replace(/\+/g, '-').replace(/\//g, '_')}`, 'base64'],
      [`buf ${Buffer.from(`\u0001${s}`).toString('hex')}`, 'hex'],
    ] as const) {
      expect(leaksOf(text, s), text).toContain(enc);
    }
    expect(leaksOf(`${s.slice(0, 5)}…`, s)).toEqual([]);
  });

  it('every route, asked with every secret every way, logs none of them', async () => {
    const statuses = new Map<number, number>();
    // The dashboard's browser login succeeds once (303 and a session cookie, itself a secret).
    const login = await fetch(`${api.url}/admin/queues?token=${ADMIN_TOKEN}`, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const session = login.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!;
    expect((await fetch(`${api.url}/admin/queues`, { headers: { cookie: `mp_admin=${session}` } })).status).toBe(200);
    let n = 0;
    for (const secret of secrets()) {
      for (const route of ROUTES) {
        for (const a of asks(route, secret.value)) {
          const r = await fetch(`${api.url}${a.path}`, { method: a.method ?? 'GET', headers: a.headers ?? {}, redirect: 'manual' });
          await r.arrayBuffer();
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          n++;
        }
      }
    }
    await new Promise((r) => setTimeout(r, 300));
    const log = api.output();
    const lines = log.split('\n').filter(Boolean);
    console.log(`secrets in logs: ${n} requests (${[...statuses].sort(([x], [y]) => x - y).map(([s, c]) => `${c} × ${s}`).join(', ')}), ${lines.length} log lines`);
    expect(lines.length).toBeGreaterThan(n); // at least a line per request: the log was collected
    expect([...statuses.keys()].some((s) => s === 200)).toBe(true);
    for (const s of [...secrets(), { name: 'dashboard session', value: session, mustHide: session }, { name: 'ADS key (environment)', value: ADS_KEY, mustHide: ADS_KEY }]) {
      const found = leaksOf(log, s.mustHide);
      expect(found, `${s.name} in the server log: ${lines.find((l) => leaksOf(l, s.mustHide).length > 0)}`).toEqual([]);
    }
  });

  it('the CLI quotes no secret it was given in its arguments or environment', async () => {
    const [business, widget] = keys as [string, string];
    const runs: Array<[string[], NodeJS.ProcessEnv]> = [
      // Arguments quoting a key, the token or a mistyped key: each comes back in an error message.
      [['serve', `--bogus=${business}`], env],
      [['serve', '--port', ADMIN_TOKEN], env],
      [['keys', 'show', widget], env],
      [['keys', 'revoke', `mp_${business.slice(3).toUpperCase()}`], env],
      [[`unknown-${business}`], env],
      [['worker'], { ...env, REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:1/0` }],
      [['jobs', 'status'], { ...env, REDIS_URL: `redis://operator:${REDIS_PASSWORD}@127.0.0.1:1/0` }],
    ];
    for (const [args, e] of runs) {
      const r = await runCli(args, e);
      cliOutput.push(`${r.stdout}${r.stderr}`);
    }
    const out = cliOutput.join('\n');
    expect(out).toMatch(/unknown option/); // the messages were collected
    for (const s of [...secrets(), { name: 'REDIS_URL password', value: REDIS_PASSWORD, mustHide: REDIS_PASSWORD }, { name: 'ADS key (environment)', value: ADS_KEY, mustHide: ADS_KEY }]) {
      expect(leaksOf(out, s.mustHide), `${s.name} in the CLI output:\n${out}`).toEqual([]);
    }
  });
});
