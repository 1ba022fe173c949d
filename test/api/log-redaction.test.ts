/**
 * No secret in a log line: a real server at LOG_LEVEL info with the queue
 * dashboard mounted (operator token, real Redis), requests with the key in
 * the query (weather.php `api_key=`, widget.php `key=`), in the X-API-Key
 * header, mistyped, in a request that fails validation, percent-encoded in
 * name and value (`api_k%65y=%6Dp_…` was once answered 200 and logged whole)
 * and the operator token of the dashboard's browser login
 * (`/admin/queues?token=` was once logged in clear). The captured log
 * must hold the key's public prefix and never the key or the token.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { isSecretName, redactSecrets, secretValues } from '../../config/redaction.js';
import { redactingSerializers } from '../../api/log-redaction.js';
import { leaksOf } from '../support/secret-leaks.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp, TEST_KEY, installTestKey, testAccess } from './tile-fixture.js';

const PREFIX = TEST_KEY.slice(0, 11); // mp_ + the 8-character public prefix
const SECRET = TEST_KEY.slice(11);
const ADMIN_TOKEN = 'op-T0ken-4f1c9a7e2b-logtest';

/** Every character percent-encoded, as a client may send it. */
const encodeAll = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

describe('secrets in logs', () => {
  const data = tempDataDir();
  const lines: string[] = [];
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildApp({
      dataDir: data.dir,
      access: testAccess(data.dir),
      env: { METEOPUNTO_ADMIN_TOKEN: ADMIN_TOKEN, REDIS_URL: inject('redisUrl'), METEOPUNTO_QUEUE_PREFIX: `mplog-${process.pid}` },
      clock: () => T0_MS + 10.5 * HOUR_MS,
      logger: { level: 'info', stream },
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('logs the prefix of every key it saw, never the key', async () => {
    const q = 'lat=43.123&lon=11.2345';
    const statuses = [
      (await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&${q}`)).status,
      (await fetch(`${base}/api/v1/widget.php?key=${TEST_KEY}&${q}&mode=iframe`)).status,
      (await fetch(`${base}/api/v1/weather.php?${q}`, { headers: { 'X-API-Key': TEST_KEY } })).status,
      (await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}x&${q}`)).status, // mistyped: still most of a key
      (await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&lat=999&lon=11`)).status, // validation error
      (await fetch(`${base}/api/v1/nowhere?api_key=${TEST_KEY}`)).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 401, 400, 404]);
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(12); // a line per request and per response at least
    expect(log).toContain(PREFIX);
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(SECRET.slice(0, 12));
  });

  it('a percent-encoded key parameter is answered and logged with the prefix only', async () => {
    lines.length = 0;
    const r = await fetch(`${base}/api/v1/weather.php?lat=43.123&lon=11.2345&api_k%65y=%6D${TEST_KEY.slice(1, 20)}${encodeAll(TEST_KEY.slice(20))}`);
    expect(r.status).toBe(200);
    await new Promise((res) => setTimeout(res, 50));
    const log = lines.join('\n');
    expect(log).toContain(`api_key=${PREFIX}…`);
    expect(log).not.toContain(SECRET.slice(0, 8));
    expect(log).not.toContain(encodeAll(TEST_KEY.slice(20)));
  });

  it('the operator token of the dashboard login is not logged', async () => {
    lines.length = 0;
    const login = await fetch(`${base}/admin/queues?token=${ADMIN_TOKEN}`, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${base}/admin/queues?token=${encodeAll(ADMIN_TOKEN)}`, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${base}/admin/queues?token=wrong-${ADMIN_TOKEN}`)).status).toBe(401);
    expect((await fetch(`${base}/admin/queues`, { headers: { cookie } })).status).toBe(200);
    await new Promise((res) => setTimeout(res, 50));
    const log = lines.join('\n');
    expect(log).toContain('/admin/queues?token=[redacted]');
    expect(log).not.toContain(ADMIN_TOKEN);
    expect(log).not.toContain(encodeAll(ADMIN_TOKEN));
    expect(log).not.toContain(cookie.split('=')[1]!);
  });
});

describe('the redaction rule', () => {
  it("logs whatever is given as 'err' (a string, a rejection that is no Error) without throwing, redacted", () => {
    // A throwing serializer killed `meteopunto serve` when Redis came back: it logged { err: '<message>' }.
    expect(redactingSerializers.err(`connect ECONNREFUSED; api_key=${TEST_KEY}`)).toEqual({ type: 'string', message: `connect ECONNREFUSED; api_key=${PREFIX}…`, stack: '' });
    expect(redactingSerializers.err(undefined)).toEqual({ type: 'undefined', message: 'undefined', stack: '' });
    expect(redactingSerializers.err({ code: 'ECONNRESET' })).toEqual({ type: 'Error', message: '', stack: '', code: 'ECONNRESET' });
    const e = Object.assign(new Error(`token=op-token-0123456789`), { code: 'E_X' });
    const out = redactingSerializers.err(e);
    expect(out).toMatchObject({ type: 'Error', message: 'token=[redacted]', code: 'E_X' });
    expect(out.stack).toMatch(/^Error: token=\[redacted\]\n/);
  });

  it('cuts keys to their prefix in any spelling and encoding, and hides other secret values', () => {
    const cases: Array<[string, string]> = [
      [`/w?lat=1&api_key=${TEST_KEY}&lon=2`, `/w?lat=1&api_key=${PREFIX}…&lon=2`],
      [`/w?key=${TEST_KEY}`, `/w?key=${PREFIX}…`],
      [`/w?API_KEY=${TEST_KEY}&Api-Key=${TEST_KEY}`, `/w?API_KEY=${PREFIX}…&Api-Key=${PREFIX}…`],
      [`/w?api%5Fkey=${TEST_KEY}`, `/w?api_key=${PREFIX}…`],
      [`/w?api_k%65y=%6D${TEST_KEY.slice(1)}`, `/w?api_key=${PREFIX}…`],
      [`/w?api_k%2565y=%256D${TEST_KEY.slice(1)}`, `/w?api_key=${PREFIX}…`], // encoded twice
      [`/w?api_key=${encodeAll(TEST_KEY)}`, `/w?api_key=${PREFIX}…`],
      [`/w?api_key=not-a-key-but-long-enough-to-hide`, '/w?api_key=[redacted]'],
      [`/no-such-path/${TEST_KEY}`, `/no-such-path/${PREFIX}…`],
      [`unknown key MP_${TEST_KEY.slice(3)} refused`, `unknown key ${PREFIX}… refused`],
      ['/admin/queues?token=op-token-0123456789', '/admin/queues?token=[redacted]'],
      ['cookie: theme=dark; mp_admin=9f86d081884c7d65; x=1', 'cookie: theme=dark; mp_admin=[redacted]; x=1'],
      ['{"authorization":"Bearer abc.def-ghi","x-api-key":"zzz","PRIVATE-TOKEN":"ads-123"}', '{"authorization":"[redacted]","x-api-key":"[redacted]","PRIVATE-TOKEN":"[redacted]"}'],
      ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [redacted]'],
      ['REDIS_URL redis://:hunter2hunter2@cache:6379/0: cannot connect', 'REDIS_URL redis://:[redacted]@cache:6379/0: cannot connect'],
      ['/w?lat=41.9&lon=12.5&fields=base', '/w?lat=41.9&lon=12.5&fields=base'],
    ];
    for (const [input, out] of cases) expect(redactSecrets(input), input).toBe(out);
    // The rule is stable: a redacted text passes it unchanged.
    for (const [, out] of cases) expect(redactSecrets(out), out).toBe(out);
  });

  it('finds a secret inside an encoded URL, nested parameters and Basic credentials, and cuts it in every encoding', () => {
    const token = 'op-T0ken-4f1c9a7e2b';
    const password = 's3cret/Passw0rd+x';
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const url = `https://minio:${encodeURIComponent(password)}@minio.local:9000`;
    const cases: Array<[string, string, string]> = [
      // [line, secret, what must stay]
      [`GET /login?next=${encodeURIComponent(`/admin/queues?token=${token}`)}`, token, 'GET /login?next='],
      [`GET /login?next=/admin/queues?token=${token}&x=1`, token, '&x=1'],
      [`GET /login?next=${encodeURIComponent(encodeURIComponent(`/w?api-token=${token}`))}`, token, 'GET /login?next='],
      [`bucket endpoint ${encodeURIComponent(url)} unreachable`, password, 'minio.local'],
      [`{"endpoint":"${encodeURIComponent(url)}","msg":"retry"}`, password, '"msg":"retry"'],
      [`Authorization: Basic ${b64(`minio:${password}`)}; retried with ${b64(`minio:${password}`)}`, password, 'retried with'],
      [`sent ${b64(`minio:${password}`)} to ${url}`, password, 'minio.local:9000'],
      [`sent ${Buffer.from(`x-minio:${password}`).toString('base64url')} to ${url}`, password, 'minio.local:9000'],
    ];
    for (const [line, secret, kept] of cases) {
      const out = redactSecrets(line);
      expect(leaksOf(out, secret), `${line} → ${out}`).toEqual([]);
      expect(out).toContain(kept);
      expect(redactSecrets(out), out).toBe(out);
    }
  });

  it("cuts the password of an endpoint URL in the environment (AWS_ENDPOINT_URL) in every encoding, base64 of 'user:password' included", () => {
    const password = 'mIn10-pa55:w0rd';
    const env = { AWS_ENDPOINT_URL: `https://minio:${encodeURIComponent(password)}@minio.local:9000` };
    const secrets = secretValues(env);
    expect(secrets).toContain(password);
    for (const user of ['minio', 'mi', 'm']) {
      const basic = Buffer.from(`${user}:${password}`).toString('base64');
      for (const line of [`S3 request failed: Authorization: ${basic}`, `"auth64":"${encodeURIComponent(basic)}"`, `hex? no: ${basic.replace(/\+/g, '-').replace(/\//g, '_')}`]) {
        const out = redactSecrets(line, secrets);
        expect(leaksOf(out, password), `${line} → ${out}`).toEqual([]);
      }
    }
  });

  it('judges a name the same after thousands of other names (the answers are remembered, within a bound)', () => {
    const judged = () => ['api_key', 'X-API-Key', 'mp_admin', 'pass%77ord', 'reqId', 'hostname', 'msg', 'lat'].map(isSecretName);
    const expected = [true, true, true, true, false, false, false, false];
    expect(judged()).toEqual(expected);
    // Names a client may invent in its query strings, many more than the memo holds; every second one secret-named.
    for (let i = 0; i < 5000; i++) expect(isSecretName(i % 2 ? `p${i}_token` : `p${i}`)).toBe(i % 2 === 1);
    expect(judged()).toEqual(expected);
    expect(redactSecrets('{"reqId":"req-1","my_token":"abcdefgh12345","msg":"x"}')).toBe('{"reqId":"req-1","my_token":"[redacted]","msg":"x"}');
  });

  it('removes the secret values of the environment wherever they appear, raw or percent-encoded', () => {
    const env = { METEOPUNTO_ADMIN_TOKEN: 'op/T0ken+with=odd&chars', ADS_API_KEY: '1234abcd-5678-efgh', REDIS_URL: 'redis://user:p%40ss-word-9@h:6379', HOME: '/home/someone-long', METEOPUNTO_ADS_KEY: 'short' };
    const secrets = secretValues(env, ['HOME']);
    expect(secrets.sort()).toEqual(['/home/someone-long', '1234abcd-5678-efgh', 'op/T0ken+with=odd&chars', 'p%40ss-word-9', 'p@ss-word-9'].sort());
    const said = `provider said: key 1234abcd-5678-efgh refused; token ${encodeURIComponent(env.METEOPUNTO_ADMIN_TOKEN)} and p@ss-word-9`;
    expect(redactSecrets(said, secrets)).toBe('provider said: key [redacted] refused; token [redacted] and [redacted]');
  });
});
