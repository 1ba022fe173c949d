/**
 * Two machines' worth of processes sharing only Redis and the bucket: two
 * ingest workers and two API replicas (`meteopunto worker`/`serve` from
 * dist/), each with its own empty METEOPUNTO_DATA. A run published by the
 * emulated MeteoHub is ingested by one worker into the bucket; both replicas
 * answer from it within the delay deploy.md states, with exactly the answers
 * of the same run ingested by a worker into a local directory and served
 * from there (a second deployment with its own queue prefix); `meteopunto
 * tiles verify` on the bucket passes.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { readManifest, readManifestSync } from '../../../tiles/manifest-file.js';
import { productDir } from '../../../config/paths.js';
import { bucketVersions } from '../../../tiles/ops/bucket-gc.js';
import { describeShared } from '../../support/shared-data.js';
import { uniquePrefix, waitFor } from '../../jobs/support/harness.js';
import type { WorkerProcess } from '../../jobs/support/worker-process.js';
import { H, POINTS, runCli, startDeployment, stepsCovering, type Deployment, type Replica } from './deployment.js';
import { parseCreated } from '../../api/access/fixtures/api-process.js';

/** deploy.md: every replica answers from a new version within 30 s of its switch in the bucket (2.2–2.6 s measured here). */
const STATED_DELAY_MS = 30_000;

describeShared('two machines sharing Redis and the bucket', () => {
  let d: Deployment;
  let key: string;
  let workers: WorkerProcess[];
  let replicas: Replica[];
  let local: { worker: WorkerProcess; replica: Replica; dir: string };

  beforeAll(async () => {
    d = await startDeployment(inject('redisUrl'), { tickSeconds: 2 });
    const created = await runCli(['keys', 'create', '--plan', 'business', '--name', 'two-machines'], { ...d.shared, METEOPUNTO_DATA: d.machineDir('keys') });
    expect(created.code, created.stderr).toBe(0);
    key = parseCreated(created.stdout).key;
    workers = [d.worker('A'), d.worker('B')];
    // The same run into a local directory: its own queue prefix (its own jobs), the directory shared by its worker and server.
    const dir = d.machineDir('local');
    const localEnv = { METEOPUNTO_TILES: '', METEOPUNTO_QUEUE_PREFIX: uniquePrefix(), METEOPUNTO_DATA: dir };
    const lw = d.worker('L', localEnv);
    replicas = await Promise.all([d.replica('R1'), d.replica('R2')]);
    local = { worker: lw, replica: await d.replica('RL', localEnv), dir };
    await Promise.all([...workers, lw].map((w) => w.waitForLine((l) => l.event === 'ready', 60_000)));
  }, 180_000);
  afterAll(async () => {
    await d?.close();
  });

  async function healthVersion(r: Replica): Promise<string | undefined> {
    const res = await fetch(`${r.url}/healthz`).catch(() => null);
    if (!res) return undefined;
    const body = (await res.json()) as { products?: { nwp?: { version?: string } } };
    return body.products?.nwp?.version;
  }

  it('a run one worker publishes into the bucket is served by both replicas within the stated delay, exactly as from a local directory; tiles verify passes', async () => {
    const now = Date.now();
    const run = new Date(Math.floor(now / H) * H - 2 * H);
    await d.publishRun(run, 0, stepsCovering(run, now, now + 10 * 60_000));

    // The switch in the bucket, seen from here (polled), then each replica's /healthz naming that version.
    const bucket = d.s3.storage(d.tiles);
    const version = await waitFor('the version in the bucket', async () => (await readManifest(bucket, 'nwp').catch(() => null))?.version, 120_000);
    const switchedAt = Date.now();
    const delays = await Promise.all(replicas.map(async (r) => {
      await waitFor(`${r.name} answering from ${version}`, async () => (await healthVersion(r)) === version || undefined, 60_000).catch(async (err: Error) => {
        const health = await fetch(`${r.url}/healthz`).then((x) => x.text(), (e: Error) => e.message);
        throw new Error(`${err.message}; /healthz: ${health}; output: ${r.output().slice(-3000)}`);
      });
      return Date.now() - switchedAt;
    }));
    console.log(`two machines: replicas switched ${delays.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after the bucket's manifest changed`);
    for (const ms of delays) expect(ms).toBeLessThanOrEqual(STATED_DELAY_MS);

    // One worker of the two ingested it.
    const done = workers.flatMap((w) => w.lines.filter((l) => l.event === 'completed' && l.queue === 'ingest'));
    expect(done).toHaveLength(1);
    const started = workers.flatMap((w) => w.lines.filter((l) => l.event === 'active' && l.jobId === done[0]!.jobId)).at(-1)!;
    const [v] = await bucketVersions(bucket, 'nwp', version);
    console.log(`two machines: the ingest job (download, decode, derive, upload, switch) took ${((Number(done[0]!.time) - Number(started.time)) / 1000).toFixed(1)} s; the version is ${v!.objects} objects, ${(v!.bytes / 1e6).toFixed(2)} MB`);
    expect((await readManifest(bucket, 'nwp'))!.source).toMatchObject({ run: run.toISOString() });

    // The local deployment's worker ingested the same run; its server answers from it.
    const localVersion = await waitFor('the local version', () => readManifestSync(productDir(local.dir, 'nwp'))?.version, 120_000);
    await waitFor('RL answering from the local version', async () => (await healthVersion(local.replica)) === localVersion || undefined, 60_000);

    // Every field of a Business answer (the Free ones among them) at each point and two instants, equal on all three servers.
    const times = [new Date(Math.floor(now / H) * H).toISOString(), new Date(Math.floor(now / H) * H - 90 * 60_000).toISOString()];
    let compared = 0;
    for (const p of POINTS) {
      for (const time of times) {
        const path = `/api/v1/weather.php?lat=${p.lat}&lon=${p.lon}&time=${time}`;
        const [a, b, l] = await Promise.all([...replicas, local.replica].map(async (r) => {
          const res = await fetch(`${r.url}${path}`, { headers: { 'X-API-Key': key } });
          const body = (await res.json()) as Record<string, unknown>;
          expect(res.status, `${r.name} ${path}: ${JSON.stringify(body)}`).toBe(200);
          delete body.elapsed_ms; // the one field that differs by design
          return body;
        }));
        expect(typeof l!.temperature).toBe('number');
        expect(a).toEqual(l);
        expect(b).toEqual(l);
        compared += Object.values(l!).filter((v) => v !== null).length;
      }
    }
    expect(compared).toBeGreaterThan(POINTS.length * times.length * 8);

    const verify = await runCli(['tiles', 'verify', 'nwp'], { ...d.shared, METEOPUNTO_DATA: d.machineDir('ops') });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(new RegExp(`^ok nwp ${version.replace(/\./g, '\\.')}: `, 'm'));
  }, 300_000);
});
