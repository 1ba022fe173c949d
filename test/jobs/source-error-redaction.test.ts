/**
 * Provider credentials never reach a job's failure reason (kept in Redis,
 * printed by `jobs status`, logged by the worker): a data server behind a
 * basic-auth login refuses a download and echoes the login in its
 * explanation, and the URL carries an `apikey=` parameter; the SourceError
 * quotes the status and the server's words without either secret, in any
 * encoding (test/support/secret-leaks.ts). The worker also knows which
 * environment variables hold a source's credentials (keyEnv, passwordEnv),
 * whatever they are called, to cut them from its log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HttpFetchOptions } from '../../jobs/job-types.js';
import { downloadFile } from '../../jobs/sources/http-download.js';
import { basicAuthHeaders } from '../../jobs/sources/basic-auth.js';
import { SourceError } from '../../jobs/sources/source-error.js';
import { credentialEnvNames, parseJobsConfig } from '../../jobs/config.js';
import { redactSecrets, secretValues } from '../../config/redaction.js';
import { leaksOf } from '../support/secret-leaks.js';
import { startFileServer, type FileServer } from './support/file-server.js';

const PASSWORD = 'Lsa-p4ss-9f2c7e1b-login';
const URL_KEY = 'u7Hq2-url-apikey-55e1c0';
const OPTS: HttpFetchOptions = { maxBytes: 1_000_000, headersMs: 2000, idleMs: 400, totalMs: 5000, parallel: 1, notFound: 'fail', checksumAlgorithm: 'sha256' };

let server: FileServer;
let dir: string;
const saved = { ...process.env };
beforeAll(async () => {
  server = await startFileServer();
  dir = mkdtempSync(join(tmpdir(), 'mp-source-redact-'));
  Object.assign(process.env, { LSA_SAF_USER: 'operator', LSA_SAF_PASSWORD: PASSWORD });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  process.env = saved;
});

it('a refused download names the status and the reason, not the login or the URL key', async () => {
  server.routes.set('/lsa/uv.h5', { body: Buffer.alloc(0), status: 401, message: `login operator:${PASSWORD} refused (Authorization: Basic ${Buffer.from(`operator:${PASSWORD}`).toString('base64')})` });
  const headers = basicAuthHeaders({ userEnv: 'LSA_SAF_USER', passwordEnv: 'LSA_SAF_PASSWORD' })!;
  const err = await downloadFile({ url: `${server.url('/lsa/uv.h5')}?apikey=${URL_KEY}`, dest: join(dir, 'uv.h5'), decompress: 'none', options: OPTS, headers }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  const message = (err as SourceError).message;
  expect(message).toMatch(/HTTP 401 \(login operator:\[redacted\] refused/);
  expect(leaksOf(message, PASSWORD)).toEqual([]);
  expect(leaksOf(message, URL_KEY)).toEqual([]);
});

it('the worker cuts the credentials its sources read, whatever their variables are called', () => {
  const config = parseJobsConfig(
    {
      products: {
        uv: { source: { kind: 'http', urls: ['https://lsa.example/uv/{yyyymmdd}.h5'], basicAuth: { userEnv: 'LSA_LOGIN_USER', passwordEnv: 'LSA_LOGIN_2' } } },
        cams: { source: { kind: 'ads', api: 'https://ads.example/api', dataset: 'cams-europe-air-quality-forecasts', keyEnv: 'CAMS_ACCESS', request: { variable: ['ozone'] } } },
      },
    },
    'jobs.json',
  );
  expect(credentialEnvNames(config).sort()).toEqual(['CAMS_ACCESS', 'LSA_LOGIN_2']);
  const env = { LSA_LOGIN_2: 'second-login-f00d42', CAMS_ACCESS: 'cams-access-0b5e9a17', HOME: '/root' };
  const secrets = secretValues(env, credentialEnvNames(config));
  expect(redactSecrets(`ads said: bad key cams-access-0b5e9a17; lsa said: second-login-f00d42`, secrets)).toBe('ads said: bad key [redacted]; lsa said: [redacted]');
});
