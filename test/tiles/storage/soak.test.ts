/**
 * The bucket deployment under a steady load while new nwp runs keep coming,
 * in a compressed clock: the emulated MeteoHub publishes a new ICON-2I run
 * every SOAK_PUBLISH_SECONDS (default 20), the two workers' schedule (a tick
 * a second) ingests each into the bucket, and both replicas answer Free
 * requests all along (a lane each, 50 ms between requests). Run k's 2 m temperature is
 * k K above run 0's at every valid time (./run-values.ts), so every answer
 * says which run it came from.
 *
 * Checked: no answer but 200; every answer from a run live in the bucket at
 * some instant between the stated delay (deploy.md) before it was asked and
 * its arrival; each replica follows each switch within that delay; each
 * replica's RSS, sampled every 2 s, ends within 1.5 times its median over the
 * first 10 s (flat, not growing with the versions seen); the bucket's size
 * stays within what the gc grace allows. Bucket gc's grace (10 min in a
 * deployment, above any replica's switch delay) is compressed to
 * GC_GRACE_MS here, run by this test after each publish as `tiles gc` would.
 *
 * The emulated feed writes each run's files in a child process: this process
 * hosts s3rver, the emulator, the load and the clock, and the files' writing
 * (seconds of synchronous grib_filter) once stopped them all, every bucket
 * request timing out meanwhile (docs/deploy.md).
 *
 * SOAK_SECONDS (default 90) lengthens it; docs/development.md gives the
 * longer variants. The figures are printed at the end (docs/deploy.md).
 * SOAK_LOG_DIR=<dir> writes the replicas' and workers' logs and the soak's
 * timeline there (soak.json: the bucket's switches, the feed, the gcs, this
 * process's stalls, every answer).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { readManifest } from '../../../tiles/manifest-file.js';
import { bucketVersions, collectBucketGarbage } from '../../../tiles/ops/bucket-gc.js';
import { describeShared } from '../../support/shared-data.js';
import { waitFor } from '../../jobs/support/harness.js';
import type { WorkerProcess } from '../../jobs/support/worker-process.js';
import { parseCreated } from '../../api/access/fixtures/api-process.js';
import { H, POINTS, runCli, startDeployment, stepsCovering, type Deployment, type Replica } from './deployment.js';

const SOAK_MS = 1000 * Number(process.env.SOAK_SECONDS ?? 90);
const EVERY_MS = 1000 * Number(process.env.SOAK_PUBLISH_SECONDS ?? 20);
/** deploy.md: every replica answers from a new version within 30 s of its switch in the bucket (the soak's figures are there too). */
const STATED_DELAY_MS = 30_000;
/** Above the stated delay: a replica still on the previous version may read it whole until then. */
const GC_GRACE_MS = 35_000;
/** Between a lane's requests: a steady load that leaves the workers and the bucket (in this process) their share of 2 cores. */
const PAUSE_MS = 50;
const RUNS = Math.ceil(SOAK_MS / EVERY_MS) + 1;
const WORKER_NAMES = ['A', 'B'];

interface Answer { replica: string; sent: number; received: number; status: number; run: number | null; error?: string }

describeShared('soak: new runs into the bucket under a steady load on two replicas', () => {
  let d: Deployment;
  let key: string;
  let replicas: Replica[];
  let workers: WorkerProcess[];
  const replicaLogs = new Map<string, string[]>();
  const start = Date.now();
  // Runs an hour apart, the newest an hour old at the end, all within the source's late window.
  const runAt = (k: number) => new Date(Math.floor(start / H) * H - (RUNS - k) * H);

  beforeAll(async () => {
    d = await startDeployment(inject('redisUrl'), {
      // 2 m temperature (which tells the run), dew point, wind and the orography: an ingest of seconds, not the whole run's tens.
      tickSeconds: 1, lateAfterHours: RUNS + 3, variables: ['T_2M', 'TD_2M', 'U_10M', 'V_10M', 'HSURF'],
      quotaEnv: { METEOPUNTO_QUOTA_FREE_MINUTE: '1000000', METEOPUNTO_QUOTA_FREE_DAY: '100000000' },
    });
    const created = await runCli(['keys', 'create', '--plan', 'free', '--name', 'soak'], { ...d.shared, METEOPUNTO_DATA: d.machineDir('keys') });
    expect(created.code, created.stderr).toBe(0);
    key = parseCreated(created.stdout).key;
    workers = WORKER_NAMES.map((n) => d.worker(n));
    replicas = await Promise.all([d.replica('R1'), d.replica('R2')]);
    // Each replica's whole log, for SOAK_LOG_DIR (its output() keeps only the end).
    for (const r of replicas) {
      const buf: string[] = [];
      replicaLogs.set(r.name, buf);
      r.child.stdout!.on('data', (b: Buffer) => buf.push(b.toString()));
    }
    await Promise.all(workers.map((w) => w.waitForLine((l) => l.event === 'ready', 60_000)));
  }, 180_000);
  afterAll(async () => {
    await d?.close();
  });

  const rssKb = (r: Replica) => {
    try {
      return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${r.child.pid}/status`, 'utf8'))?.[1] ?? NaN);
    } catch {
      return NaN; // the process is gone: the answers say so
    }
  };

  it('no 5xx, no answer from a run older than the live one by more than the stated delay, RSS flat, bucket bounded by gc', async () => {
    const bucket = d.s3.storage(d.tiles);
    const end = start + 3 * 60_000 + SOAK_MS;
    // Run k's files cover every instant of the soak (and 3 h before, the trend).
    const feed: { run: number; from: number; to: number }[] = [];
    const publish = async (k: number) => {
      const from = Date.now();
      await d.publishRun(runAt(k), k, stepsCovering(runAt(k), from, end));
      feed.push({ run: k, from, to: Date.now() });
    };
    // This process hosts s3rver, the emulator, the load and the clock: a stall of its event loop stops them all.
    const stalls: { at: number; ms: number }[] = [];
    let tick = Date.now();
    const stallTimer = setInterval(() => {
      const now = Date.now();
      if (now - tick > 400) stalls.push({ at: tick, ms: now - tick });
      tick = now;
    }, 100);
    stallTimer.unref();
    const gcs: { after: number; from: number; to: number }[] = [];
    /**
     * When each run became live in the bucket, at the earliest: this process polls current.json every 100 ms, and a
     * switch happened after the start of the last read that still returned the version before it. A read answered
     * late (s3rver shares this process with the uploads) must not make the replicas' prompt answers look early.
     */
    const liveSince: { run: number; at: number; version: string }[] = [];
    const runOf = (iso: string) => Math.round((Date.parse(iso) - runAt(0).getTime()) / H);
    let polling = true;
    const poller = (async () => {
      let lastSameStart = Date.now();
      while (polling) {
        const started = Date.now();
        const m = await readManifest(bucket, 'nwp').catch(() => null);
        const run = m?.source?.run ? runOf(m.source.run) : null;
        if (m && run !== null) {
          if (liveSince.at(-1)?.version !== m.version) liveSince.push({ run, at: lastSameStart, version: m.version });
          lastSameStart = started;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    // Run 0, and the replicas' temperature at each point from it: the base every later answer is compared with.
    await publish(0);
    await waitFor('run 0 live on both replicas', async () => {
      for (const r of replicas) if ((await fetch(`${r.url}/healthz`).then((x) => x.json() as Promise<{ products?: { nwp?: unknown } }>)).products?.nwp === undefined) return undefined;
      return true;
    }, 120_000);
    const base = new Map<string, number>();
    for (const p of POINTS) {
      const res = await fetch(`${replicas[0]!.url}/api/v1/weather.php?lat=${p.lat}&lon=${p.lon}`, { headers: { 'X-API-Key': key } });
      expect(res.status).toBe(200);
      base.set(`${p.lat},${p.lon}`, ((await res.json()) as { temperature: number }).temperature);
    }
    const t0 = Date.now();

    const answers: Answer[] = [];
    const rss = new Map(replicas.map((r) => [r.name, [] as number[]]));
    let soakEnd = t0 + SOAK_MS;
    let soakStop = soakEnd;
    // One lane per replica, requests back to back at the points in turn.
    const lanes = replicas.map(async (r) => {
      for (let i = 0; Date.now() < soakEnd; i++) {
        const p = POINTS[i % POINTS.length]!;
        const sent = Date.now();
        const res = await fetch(`${r.url}/api/v1/weather.php?lat=${p.lat}&lon=${p.lon}`, { headers: { 'X-API-Key': key } }).catch((err: Error) => err);
        if (res instanceof Error) {
          // A refused connection or a reset: counted as a failed answer (a dead replica ends its lane).
          answers.push({ replica: r.name, sent, received: Date.now(), status: 0, run: null, error: `${res.message} ${String((res.cause as Error | undefined)?.message ?? '')}` });
          if (r.child.exitCode !== null || r.child.signalCode !== null) break;
          continue;
        }
        const body = (await res.json()) as { temperature?: number };
        // T_2M rises 0.2 K an hour in every run: the drift since t0 is taken off before reading the run number.
        const drift = (0.2 * (sent - t0)) / H;
        const run = typeof body.temperature === 'number' ? Math.round(body.temperature - base.get(`${p.lat},${p.lon}`)! - drift) : null;
        answers.push({ replica: r.name, sent, received: Date.now(), status: res.status, run });
        await new Promise((ok) => setTimeout(ok, PAUSE_MS));
      }
    });
    const sampler = (async () => {
      while (Date.now() < soakEnd) {
        for (const r of replicas) rss.get(r.name)!.push(rssKb(r));
        await new Promise((ok) => setTimeout(ok, 2000));
      }
    })();
    const bucketBytes: number[] = [];
    let versionBytes = 0;
    try {
    for (let k = 1; k < RUNS && Date.now() < soakEnd - EVERY_MS / 2; k++) {
      await new Promise((ok) => setTimeout(ok, Math.max(0, t0 + k * EVERY_MS - EVERY_MS / 2 - Date.now())));
      await publish(k);
      const from = Date.now();
      await collectBucketGarbage(bucket, 'nwp', { graceMs: GC_GRACE_MS });
      gcs.push({ after: k, from, to: Date.now() });
      const versions = await bucketVersions(bucket, 'nwp', null);
      versionBytes = Math.max(versionBytes, ...versions.map((v) => v.bytes));
      bucketBytes.push(versions.reduce((a, v) => a + v.bytes, 0));
    }
    } finally {
      soakEnd = 0; // a failure above ends the lanes too
      soakStop = Date.now();
      await Promise.all([...lanes, sampler]);
      polling = false;
      await poller;
      clearInterval(stallTimer);
    }

    const logDir = process.env.SOAK_LOG_DIR;
    if (logDir) {
      mkdirSync(logDir, { recursive: true });
      for (const [name, chunks] of replicaLogs) writeFileSync(join(logDir, `${name}.log`), chunks.join(''));
      workers.forEach((w, i) => writeFileSync(join(logDir, `worker-${WORKER_NAMES[i]}.log`), w.lines.map((l) => JSON.stringify(l)).join('\n')));
      writeFileSync(join(logDir, 'soak.json'), JSON.stringify({ t0, liveSince, feed, gcs, stalls, answers }));
    }
    // Figures, for docs/deploy.md.
    const switches = liveSince.slice(1);
    // A replica's lag: from the bucket's switch to its first answer from that run (none to measure when the next switch
    // came within the stated delay: the replica may go straight to that one).
    const lags = replicas.map((r) => switches.flatMap((s, i) => {
      const first = answers.find((a) => a.replica === r.name && a.sent >= s.at && a.run === s.run);
      if (first) return [first.received - s.at];
      // Nothing to measure when the next switch, or the end of the load, came within the stated delay.
      const next = switches[i + 1]?.at ?? soakStop;
      return next - s.at < STATED_DELAY_MS ? [] : [Infinity];
    }));
    const mb = (kb: number) => (kb / 1024).toFixed(0);
    console.log([
      `soak: ${(SOAK_MS / 1000).toFixed(0)} s, a run every ${EVERY_MS / 1000} s: ${switches.length} switches in the bucket (runs ${liveSince.map((s) => s.run).join(' → ')}), ${answers.length} answers (${(answers.length / (SOAK_MS / 1000)).toFixed(0)}/s)`,
      ...replicas.map((r, i) => `  ${r.name}: lag after the bucket switch ${lags[i]!.map((ms) => `${(ms / 1000).toFixed(1)}`).join(', ')} s; RSS MB ${rss.get(r.name)!.map(mb).join(' ')}`),
      `  this process's longest event-loop stall ${(Math.max(0, ...stalls.map((x) => x.ms)) / 1000).toFixed(1)} s; the feed's runs written in ${feed.map((f) => ((f.to - f.from) / 1000).toFixed(1)).join(', ')} s`,
      `  bucket: ${bucketBytes.map((b) => (b / 1e6).toFixed(1)).join(', ')} MB after each gc; a version ${(versionBytes / 1e6).toFixed(2)} MB`,
    ].join('\n'));

    const failed = answers.filter((a) => a.status !== 200);
    expect(failed.slice(0, 5), `${failed.length} answers not 200; ${replicas.map((r) => `${r.name} exit ${r.child.exitCode ?? r.child.signalCode}: ${r.output().slice(-2500)}`).join('\n')}`).toEqual([]);
    expect(switches.length, `worker lines: ${JSON.stringify(workers.flatMap((w) => w.lines.filter((l) => l.queue !== 'schedule' || l.event !== 'completed').slice(-8)))}`).toBeGreaterThanOrEqual(Math.floor(SOAK_MS / EVERY_MS) - 2);
    // Every answer is from a run live in the bucket at some instant from STATED_DELAY_MS before it was sent to its arrival.
    const stale = answers.filter((a) => {
      const liveThen = liveSince.filter((s) => s.at <= a.sent - STATED_DELAY_MS).at(-1);
      const since = liveSince.filter((s) => s.at > a.sent - STATED_DELAY_MS && s.at <= a.received);
      const allowed = [...(liveThen ? [liveThen] : []), ...since].map((s) => s.run);
      return liveThen !== undefined && !allowed.includes(a.run ?? -1);
    });
    expect(stale.slice(0, 5), `${stale.length} stale answers`).toEqual([]);
    for (const l of lags) for (const ms of l) expect(ms).toBeLessThanOrEqual(STATED_DELAY_MS);
    // RSS flat: the last sample within 1.5 times the median of the first 10 s of the soak.
    for (const r of replicas) {
      const s = rss.get(r.name)!;
      const early = [...s.slice(0, 5)].sort((x, y) => x - y)[2]!;
      expect(s.at(-1)!, `${r.name} RSS ${s.join(' ')} kB`).toBeLessThanOrEqual(1.5 * early);
    }
    // gc keeps what the grace allows: the versions replaced within it, the live one and one arriving.
    const allowed = (Math.ceil(GC_GRACE_MS / EVERY_MS) + 2) * versionBytes;
    for (const b of bucketBytes) expect(b).toBeLessThanOrEqual(allowed);
  }, 600_000 + SOAK_MS);
});
