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
import { jsonDocument, manifestKey, writeManifest } from '../manifest-file.js';
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
 * Steps 2 and 3: make the finished temp directory the live version of
 * `storeKey` (`nwp`, `reanalysis/1950`). When the commit or the manifest
 * write fails, the previous manifest stays live.
 *
 * `base`: the manifest's stamp when the writer started (null: there was
 * none). Given, the switch is conditional on it (TileStorage.putIf): when
 * another writer switched the store meanwhile, this one loses
 * ({@link PublishConflict}) and its uploaded version is removed. Absent
 * (the local directory), the last manifest written wins, as before.
 */
export async function commitVersion(storage: TileStorage, storeKey: string, temp: TempVersion, manifest: Manifest, base?: string | null): Promise<void> {
  temp.release();
  await unlink(join(temp.dir, OWNER_FILE));
  const prefix = `${storeKey}/${manifest.version}/`;
  await storage.commitDir(temp.dir, prefix);
  if (base === undefined) {
    await writeManifest(storage, storeKey, manifest);
  } else if (!(await storage.putIf(manifestKey(storeKey), jsonDocument(manifest), base))) {
    await storage.deletePrefix(prefix).catch(() => undefined); // unreferenced anyway: gc would remove it later
    throw new PublishConflict(`${storage.location}/${storeKey}: another writer published a version while ${manifest.version} was written; the live version is theirs`);
  }
  // A concurrent clean-up may have marked this version retired between the commit and the manifest write.
  await storage.delete(`${storeKey}/${manifest.version}${RETIRED_SUFFIX}`).catch(() => undefined);
}

/** Remove a temp directory after a failed write (best effort: gc.ts catches what this misses). */
export async function discardTempVersion(temp: TempVersion): Promise<void> {
  temp.release();
  await rm(temp.dir, { recursive: true, force: true }).catch(() => undefined);
}
