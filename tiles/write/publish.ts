/**
 * Atomic publish of a product version.
 *
 * 1. The writer fills a private temp directory `.tmp-<pid>-<host>-<hex>` in
 *    the storage's staging directory (a local store: `tiles/<product>/`),
 *    holding an owner record (host, pid, heartbeat).
 * 2. Commit: drop the owner record and hand the directory to the storage as
 *    `<product>/<version>.zarr/` (a directory: fsync, rename, fsync the
 *    product directory; tiles/storage/).
 * 3. Replace current.json (a directory: temp file, fsync, rename over, fsync).
 *
 * A crash before step 3 leaves the previous manifest live; readers only ever
 * open the version current.json names, so an orphan version is never read.
 * Clean-up of dead temp dirs and retired versions: tiles/ops/gc.ts.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, unlink, utimes, readFile } from 'node:fs/promises';
import type { Manifest } from '../manifest.js';
import { writeFileSynced } from './durable-fs.js';
import { jsonDocument, manifestKey, parseManifest, writeManifest } from '../manifest-file.js';
import { OWNER_FILE, RETIRED_SUFFIX, tempDirName } from '../layout.js';
import type { TileStorage } from '../storage/types.js';

/** How often a live writer touches its owner record (gc.ts treats silence as death). */
export const HEARTBEAT_MS = 30_000;

export interface OwnerRecord {
  host: string;
  pid: number;
  started: string;
}

/** A temp directory being written, with its heartbeat. */
export interface TempVersion {
  dir: string;
  /** Stop the heartbeat; call once, whatever the outcome. */
  release(): void;
}

/** `YYYYMMDDTHHMMSSZ-<6 hex>.zarr`: sortable by publish time, unique across concurrent writers. */
export function newVersionName(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}.zarr`;
}

/** Create the private temp directory for a new version, with its owner record and heartbeat. */
export async function createTempVersion(productDir: string): Promise<TempVersion> {
  await mkdir(productDir, { recursive: true });
  const dir = join(productDir, tempDirName(process.pid, hostname(), randomBytes(6).toString('hex')));
  await mkdir(dir);
  const owner = join(dir, OWNER_FILE);
  const record: OwnerRecord = { host: hostname(), pid: process.pid, started: new Date().toISOString() };
  await writeFileSynced(owner, JSON.stringify(record));
  const timer = setInterval(() => {
    const now = new Date();
    utimes(owner, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  return { dir, release: () => clearInterval(timer) };
}

export async function readOwner(tempDir: string): Promise<OwnerRecord | null> {
  try {
    const o = JSON.parse(await readFile(join(tempDir, OWNER_FILE), 'utf8')) as OwnerRecord;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? o : null;
  } catch {
    return null;
  }
}

/** Another writer switched the store since this one started: its version is not published. */
export class PublishConflict extends Error {
  override name = 'PublishConflict';
}

/**
 * The new version holds an older forecast run of the same model than the
 * live one (two workers finishing overlapping runs in the wrong order):
 * nothing is published and the newer run stays live. Not a failure to
 * retry: the same run would be refused again.
 */
export class OlderRunRefused extends Error {
  override name = 'OlderRunRefused';
  readonly code = 'OLDER_RUN';
}

/**
 * Throws {@link OlderRunRefused} when `next` is a forecast run (source
 * `run_order` 'forecast', from the product catalogue) older than the live
 * version's run of the same model. Another model's run replaces the live one
 * whatever its time (the primary model's late run over its fallback's); the
 * same run may be published again; a version without a run is not ordered.
 *
 * An operator's override (source `allow_older_run`, `ingest --allow-older-run`:
 * the newer run is broken) lets it through: the run it goes back over is
 * recorded in `next.source.replaced_newer_run`, which the caller reports.
 */
export function checkRunOrder(where: string, live: Manifest | null, next: Manifest): void {
  const a = live?.source;
  const b = next.source;
  if (b.run_order !== 'forecast' || !a?.run || !b.run || (a.model ?? '') !== (b.model ?? '')) return;
  const liveMs = Date.parse(a.run);
  const nextMs = Date.parse(b.run);
  if (Number.isFinite(liveMs) && Number.isFinite(nextMs) && nextMs < liveMs) {
    if (b.allow_older_run) {
      b.replaced_newer_run = { run: a.run, version: live!.version };
      return;
    }
    throw new OlderRunRefused(`${where}: run ${b.run}${b.model ? ` of ${b.model}` : ''} is older than the live run ${a.run} (${live!.version}); ${next.version} not published, the newer run stays live`);
  }
}

/** The live manifest, or null when there is none or it cannot be parsed (a new version replaces a broken one). */
async function liveManifest(storage: TileStorage, storeKey: string): Promise<Manifest | null> {
  const bytes = await storage.get(manifestKey(storeKey));
  if (bytes === null) return null;
  try {
    return parseManifest(Buffer.from(bytes).toString('utf8'), `${storage.location}/${manifestKey(storeKey)}`);
  } catch {
    return null;
  }
}

/**
 * Steps 2 and 3: make the finished temp directory the live version of
 * `storeKey` (`nwp`, `reanalysis/1950`). When the commit or the manifest
 * write fails, the previous manifest stays live.
 *
 * `base`: the manifest's stamp when the writer started (null: there was
 * none). Given, the switch is conditional on it (TileStorage.putIf): when
 * another writer switched the store meanwhile, this one loses
 * ({@link PublishConflict}) and its uploaded version is removed. Absent
 * (the local directory), the switch runs under the store's switch lock
 * (TileStorage.lockSwitch), the last manifest written wins.
 *
 * The run order ({@link checkRunOrder}) is checked against the live
 * manifest at the switch: on a directory under the switch lock; on a bucket
 * just before the conditional write, which fails if any other switch came
 * between (so the manifest checked is the one replaced), and again when it
 * lost, so that an older run is refused rather than retried.
 */
export async function commitVersion(storage: TileStorage, storeKey: string, temp: TempVersion, manifest: Manifest, base?: string | null): Promise<void> {
  const where = `${storage.location}/${storeKey}`;
  const refuseOlderRun = async () => checkRunOrder(where, await liveManifest(storage, storeKey), manifest);
  const unlock = base === undefined ? await storage.lockSwitch?.(storeKey) : undefined;
  try {
    // Before the commit too: a refused version is never uploaded (the caller removes its temp directory).
    await refuseOlderRun();
    temp.release();
    await unlink(join(temp.dir, OWNER_FILE));
    const prefix = `${storeKey}/${manifest.version}/`;
    await storage.commitDir(temp.dir, prefix);
    if (base === undefined) {
      await writeManifest(storage, storeKey, manifest);
    } else {
      const removeUpload = () => storage.deletePrefix(prefix).catch(() => 0); // unreferenced anyway: gc would remove it later
      try {
        await refuseOlderRun();
      } catch (err) {
        await removeUpload();
        throw err;
      }
      if (!(await storage.putIf(manifestKey(storeKey), jsonDocument(manifest), base))) {
        await removeUpload();
        await refuseOlderRun();
        throw new PublishConflict(`${where}: another writer published a version while ${manifest.version} was written; the live version is theirs`);
      }
    }
  } finally {
    await unlock?.();
  }
  // A concurrent clean-up may have marked this version retired between the commit and the manifest write.
  await storage.delete(`${storeKey}/${manifest.version}${RETIRED_SUFFIX}`).catch(() => undefined);
}

/** Remove a temp directory after a failed write (best effort: gc.ts catches what this misses). */
export async function discardTempVersion(temp: TempVersion): Promise<void> {
  temp.release();
  await rm(temp.dir, { recursive: true, force: true }).catch(() => undefined);
}
