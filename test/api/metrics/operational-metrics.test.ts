/**
 * /metrics beyond requests: BullMQ job states, durations and failure reasons
 * read from Redis (real queues, a real worker), and the access layer's store
 * failures when Redis goes away under a running server (a real redis-server
 * stopped). Values checked against what the test itself did.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { generateKey } from '../../../api/access/key-format.js';
import { startRedisServer, type RedisServerHandle } from '../../support/redis-server.js';

const TOKEN = 'metrics-token-0123456789';

function value(text: string, line: RegExp): number | undefined {
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').pop()) : undefined;
}

describe('/metrics: jobs and access stores', () => {
  let app: FastifyInstance | undefined;
  let redis: RedisServerHandle | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'mp-opmetrics-'));
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await redis?.stop();
    redis = undefined;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const scrape = async (base: string) => (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

  it('shows the ingest queue: states, durations of completed jobs, failures by reason', async () => {
    const url = process.env.REDIS_URL!;
    const prefix = `mp-metrics-${randomUUID().slice(0, 8)}`;
    const connection = { url };
    const queue = new Queue('ingest', { connection, prefix });
    const worker = new Worker('ingest', async (job) => {
      if (job.data.fail) throw new Error('source not reachable: HTTP 404\nat line 2');
      await new Promise((r) => setTimeout(r, 120));
    }, { connection, prefix });
    try {
      const settled = new Promise<void>((ok) => {
        let n = 0;
        const one = () => ++n === 3 && ok();
        worker.on('completed', one);
        worker.on('failed', one);
      });
      await queue.add('ingest', { fail: false });
      await queue.add('ingest', { fail: false });
      await queue.add('ingest', { fail: true }, { attempts: 1 });
      await settled;

      app = await buildApp({ dataDir: dir, env: { METEOPUNTO_ADMIN_TOKEN: TOKEN, METEOPUNTO_DATA: dir, REDIS_URL: url, METEOPUNTO_QUEUE_PREFIX: prefix } });
      const text = await scrape(await app.listen({ port: 0, host: '127.0.0.1' }));
      expect(value(text, /^meteopunto_jobs\{queue="ingest",state="completed"\}/)).toBe(2);
      expect(value(text, /^meteopunto_jobs\{queue="ingest",state="failed"\}/)).toBe(1);
      expect(value(text, /^meteopunto_jobs\{queue="schedule",state="waiting"\}/)).toBe(0);
      const median = value(text, /^meteopunto_job_duration_seconds\{queue="ingest",stat="median"\}/)!;
      expect(median).toBeGreaterThanOrEqual(0.11);
      expect(median).toBeLessThan(5);
      expect(value(text, /^meteopunto_job_failures\{queue="ingest",reason="source not reachable: HTTP 404"\}/)).toBe(1);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('counts requests refused because the key store stopped answering', async () => {
    redis = await startRedisServer();
    app = await buildApp({ dataDir: dir, env: { METEOPUNTO_ADMIN_TOKEN: TOKEN, METEOPUNTO_DATA: dir }, access: { env: { METEOPUNTO_DATA: dir, REDIS_URL: redis.url } } });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    expect(value(await scrape(base), /^meteopunto_access_store_errors_total\{store="keys"\}/)).toBe(0);
    await redis.stop();
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${base}/api/v1/weather.php?lat=41.9&lon=12.5&api_key=${generateKey().key}`);
      expect(r.status).toBe(503);
    }
    expect(value(await scrape(base), /^meteopunto_access_store_errors_total\{store="keys"\}/)).toBe(3);
  });
});
