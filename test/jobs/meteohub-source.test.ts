/**
 * The MeteoHub source against its emulator (test/support/emulators/meteohub.ts)
 * serving ICON-2I runs written by ecCodes from the real ICON-2I orography:
 * the run list read as MeteoHub's backend writes it, the newest complete run
 * picked from the directory listings (an incomplete newer run and a run in
 * the tree but not in the list are passed over), the file names taken from
 * the listing, a 429 with Retry-After and a 503 retried in place, a late run
 * named with what it lacks, an answer that is not a run list refused, and
 * the files downloaded byte for byte by the job the tick would enqueue.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseJobsConfig } from '../../jobs/config.js';
import type { MeteohubSourceConfig } from '../../jobs/config-schema.js';
import { resolveIngestJob } from '../../jobs/resolve-job.js';
import { findMeteohubRun, parseRunList } from '../../jobs/sources/meteohub.js';
import { attemptPolicy } from '../../jobs/sources/retry.js';
import { fetchSource } from '../../jobs/sources/source.js';
import { SourceError } from '../../jobs/sources/source-error.js';
import { meteohubRun } from '../support/emulators/icon-content.js';
import { METEOHUB_DATASET, METEOHUB_DIRECTORY, startMeteohubEmulator, type MeteohubEmulator, type MeteohubRun } from '../support/emulators/meteohub.js';
import { orographyHeights } from '../support/icon-grib.js';
import { describeShared } from '../support/shared-data.js';
import { tempRoot } from './support/harness.js';

const H = 3_600_000;
const R1 = new Date(Date.UTC(2026, 10, 25, 12));
const R2 = new Date(Date.UTC(2026, 10, 26, 0));
const R3 = new Date(Date.UTC(2026, 10, 26, 12));
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

describeShared('MeteoHub source (emulated MeteoHub open data)', () => {
  const dir = tempRoot('meteohub');
  let hub: MeteohubEmulator;
  let complete: MeteohubRun;
  let src: MeteohubSourceConfig;
  const req = () => ({ timeoutMs: 5000, policy: attemptPolicy({ deadlineMs: 10_000, retry: { firstDelayMs: 50, maxDelayMs: 200 } }) });

  beforeAll(async () => {
    const z = orographyHeights();
    const values = { T_2M: (h: number, s: number) => 288 - 0.0065 * h + s, U_10M: () => 3, V_10M: () => -4, ASWDIR_S: (_h: number, s: number) => 50 * s, HSURF: (h: number) => h };
    complete = meteohubRun(dir, R1, [0, 1, 2], values, z);
    const incomplete = meteohubRun(dir, R2, [0, 1, 2], { ...values, ASWDIR_S: undefined }, z);
    delete incomplete.variables.ASWDIR_S;
    const unlisted = { ...meteohubRun(dir, R3, [0, 1, 2], values, z), listed: false };
    hub = await startMeteohubEmulator({ runs: [complete, incomplete, unlisted] });
    src = {
      kind: 'meteohub', root: hub.origin, dataset: METEOHUB_DATASET, directory: METEOHUB_DIRECTORY,
      variables: ['T_2M', 'U_10M', 'V_10M', 'ASWDIR_S', 'HSURF'], optionalVariables: ['WW'], lateAfterHours: 18,
    };
  }, 120_000);
  afterAll(async () => {
    await hub?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the run list as MeteoHub writes it: newest first, date and HH:MM run, period packages skipped', () => {
    const text = JSON.stringify([
      { date: '2026-11-26', run: '00:00', filename: 'a.grib' },
      { date: 'from 2026-11-19 to 2026-11-25', run: null, filename: 'week.zip' },
      { date: '2026-11-25', run: '12:00', filename: 'b.grib' },
    ]);
    expect(parseRunList(text, 'u')).toEqual([R2, R1]);
    expect(() => parseRunList('<html>maintenance</html>', 'u')).toThrow(/not JSON/);
    expect(() => parseRunList(JSON.stringify([{ day: 1 }]), 'u')).toThrow(/no entry of the run list has a date/);
  });

  it('picks the newest complete run: the newer run lacking ASWDIR_S and the unlisted one are passed over; names come from the listing', async () => {
    const r = await findMeteohubRun(src, { now: new Date(R2.getTime() + 5 * H), req: req() });
    expect(r.kind).toBe('found');
    if (r.kind !== 'found') return;
    expect(r.run).toEqual(R1);
    expect(r.missingOptional).toEqual(['WW']);
    expect(r.files.map((f) => f.name).sort()).toEqual([
      'ASWDIR_S-icon_2I_2026112512_surface-0.grib', 'HSURF-icon_2I_2026112512_surface-0.grib', 'T_2M-icon_2I_2026112512_heightAboveGround-2.grib',
      'U_10M-icon_2I_2026112512_heightAboveGround-10.grib', 'V_10M-icon_2I_2026112512_heightAboveGround-10.grib',
    ]);
    expect(r.files.find((f) => f.name.startsWith('T_2M'))!.url).toBe(`${hub.origin}/nwp/${METEOHUB_DIRECTORY}/2026112512/T_2M/icon_2I_2026112512_heightAboveGround-2.grib`);
  });

  it('a 429 with Retry-After on the run list and a 503 on a listing are retried in place; the wait is measured at the server', async () => {
    const list = `/api/datasets/${METEOHUB_DATASET}/opendata`;
    const folder = `/nwp/${METEOHUB_DIRECTORY}/2026112512/T_2M/`;
    hub.failNext(list, 1, 429, '1');
    hub.failNext(folder, 2, 503);
    const before = hub.requests.length;
    const r = await findMeteohubRun(src, { now: new Date(R2.getTime() + 5 * H), req: req() });
    expect(r.kind).toBe('found');
    const seen = hub.requests.slice(before);
    const lists = seen.filter((q) => q.path === list);
    expect(lists.map((q) => q.status)).toEqual([429, 200]);
    expect(lists[1]!.at - lists[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(seen.filter((q) => q.path === folder).map((q) => q.status)).toEqual([503, 503, 200]);
  });

  it('late: no complete run within lateAfterHours, and the reason says what the newest run lacks', async () => {
    const r = await findMeteohubRun(src, { now: new Date(R2.getTime() + 8 * H), req: req() });
    expect(r).toEqual({ kind: 'late', reason: 'no complete run of the last 18 h: 2026-11-26T00Z lacks ASWDIR_S' });
    const old = await findMeteohubRun(src, { now: new Date(R2.getTime() + 30 * H), req: req() });
    expect(old).toEqual({ kind: 'late', reason: 'no run of the last 18 h in the run list (newest 2026-11-26T00Z)' });
  });

  it('an unknown dataset fails at once with the backend’s 404', async () => {
    const err = await findMeteohubRun({ ...src, dataset: 'NO_SUCH' }, { now: new Date(), req: req() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).transient).toBe(false);
    expect((err as SourceError).message).toMatch(/HTTP 404 \(Dataset not found for name: NO_SUCH\)/);
  });

  it('the job a tick enqueues names the run’s files; fetched, they are the served files byte for byte', async () => {
    const config = parseJobsConfig({ products: { nwp: { model: 'ICON-2I', source: { ...src, maxWaitSeconds: 10, retryInPlace: { firstDelaySeconds: 0.05, maxDelaySeconds: 0.2 } } } } }, 'test');
    const root = join(dir, 'data');
    const { id, data } = await resolveIngestJob(root, 'nwp', config.products.nwp!, { now: new Date(R2.getTime() + 5 * H), trigger: 'schedule' });
    expect(id).toBe('nwp@2026-11-25T12Z');
    expect(data).toMatchObject({ model: 'ICON-2I', run: R1.toISOString(), source: { kind: 'http' } });
    expect(data.fallback).toBeUndefined();
    hub.failNext(`/nwp/${METEOHUB_DIRECTORY}/2026112512/U_10M/icon_2I_2026112512_heightAboveGround-10.grib`, 1, 503);
    const got = await fetchSource(data.source, { root, product: 'nwp', key: 'k' });
    expect(got.paths).toHaveLength(5);
    for (const [variable, files] of Object.entries(complete.variables)) {
      const local = got.paths.find((p) => p.endsWith(`${variable}-${files[0]!.name}`))!;
      expect(sha(local), variable).toBe(sha(files[0]!.path));
    }
    await got.settle('done');
    // Without a fallback a late run is an error naming why, and no job.
    await expect(resolveIngestJob(root, 'nwp', config.products.nwp!, { now: new Date(R2.getTime() + 8 * H), trigger: 'schedule' })).rejects.toThrow(/ICON-2I .*lacks ASWDIR_S/);
  });

  it('MeteoHub not answering counts as late when a fallback is configured: the fallback run is enqueued with the reason; without one the error stands', async () => {
    const fallback = { model: 'DWD ICON-EU', run: { cycleHours: 6, availableAfterMinutes: 240 }, source: { kind: 'http', root: 'http://dwd.invalid', urls: ['{root}/{HH}/t_2m/x_{yyyymmddHH}_{step:03}_T_2M.grib2.bz2'], steps: '0-1' } };
    const fast = { maxWaitSeconds: 1, retryInPlace: { firstDelaySeconds: 0.05, maxDelaySeconds: 0.1 } };
    const config = parseJobsConfig({ products: { nwp: { model: 'ICON-2I', source: { ...src, ...fast }, fallback } } }, 'test');
    const list = `/api/datasets/${METEOHUB_DATASET}/opendata`;
    hub.failNext(list, 1000, 503);
    try {
      const now = new Date(R2.getTime() + 5 * H);
      const { id, data } = await resolveIngestJob(dir, 'nwp', config.products.nwp!, { now, trigger: 'schedule' });
      expect(id).toBe('nwp@2026-11-26T00Z-fallback');
      expect(data.model).toBe('DWD ICON-EU');
      expect(data.fallback).toMatch(new RegExp(`^ICON-2I late: MeteoHub did not answer: ${hub.origin.replace(/\./g, '\\.')}${list}: HTTP 503`));
      const alone = parseJobsConfig({ products: { nwp: { model: 'ICON-2I', source: { ...src, ...fast } } } }, 'test');
      await expect(resolveIngestJob(dir, 'nwp', alone.products.nwp!, { now, trigger: 'schedule' })).rejects.toThrow(/HTTP 503/);
    } finally {
      hub.failNext(list, 0, 503);
    }
  });
});
