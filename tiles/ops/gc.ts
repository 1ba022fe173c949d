/**
 * Clean-up of a product directory, run by every publish:
 *
 * - Temp directories of crashed writers are removed only when provably dead:
 *   the owner record names this host and a pid that no longer exists, or its
 *   heartbeat (tiles/write/publish.ts, every 30 s) has been silent for
 *   {@link STALE_TEMP_MS}. A concurrent live writer's temp dir is never touched.
 * - A version that is no longer named by current.json is first *marked*
 *   retired (`<version>.retired`, written while it is already not current);
 *   it is deleted once the mark is older than the grace period, so a reader
 *   that resolved the old manifest just before the switch (readers re-check
 *   every second) can finish its reads. Default grace: {@link DEFAULT_GRACE_MS}.
 * - Retired versions are also bounded by count ({@link MAX_RETIRED}) and by
 *   size ({@link MAX_RETIRED_SIZE_FACTOR} × the live version's): repeated
 *   publishes within the grace period would otherwise pile up (17 × 149 MB
 *   in four minutes was seen). Beyond the bounds the oldest go first, but
 *   never before {@link MIN_RETIRED_MS}, still far above the readers' re-check.
 */
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { readdir, rm, stat, unlink } from 'node:fs/promises';
import { writeFileSynced } from '../write/durable-fs.js';
import { readManifestSync } from '../manifest-file.js';
import { readOwner } from '../write/publish.js';
import { MANIFEST_FILE, VERSION_NAME, TEMP_PREFIX, OWNER_FILE, RETIRED_SUFFIX, hostTag, retiredMarker, tempDirWriter } from '../layout.js';

/** A temp dir whose heartbeat is silent this long is dead whatever its pid says (pids are reused; hosts differ on shared storage). */
export const STALE_TEMP_MS = 15 * 60_000;
/** Retired versions stay this long after being marked: far above the readers' 1 s manifest re-check. */
export const DEFAULT_GRACE_MS = 10 * 60_000;

/** Retired versions kept at most (beyond it the oldest are removed once MIN_RETIRED_MS old). */
export const MAX_RETIRED = 3;
/** Retired versions may take at most this many times the live version's size on disk. */
export const MAX_RETIRED_SIZE_FACTOR = 3;
/** No retired version is removed sooner than this after its mark: 10 × the readers' manifest re-check. */
export const MIN_RETIRED_MS = 10_000;

export interface GcOptions {
  graceMs?: number;
  maxRetired?: number;
  maxRetiredSizeFactor?: number;
  staleTempMs?: number;
  now?: number;
}

export interface GcReport {
  removedTemp: string[];
  marked: string[];
  removedVersions: string[];
}

/** True when `pid` names no process on this host (EPERM means it exists under another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function mtimeMs(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

/** Is this temp directory's writer provably gone? */
export async function tempDirIsDead(dir: string, now: number, staleTempMs: number): Promise<boolean> {
  const owner = await readOwner(dir);
  const beat = (await mtimeMs(join(dir, OWNER_FILE))) ?? (await mtimeMs(dir));
  if (beat === null) return false; // vanished meanwhile: its writer committed or cleaned it
  if (now - beat > staleTempMs) return true;
  if (owner) return goneFromThisHost(owner.host === hostname(), owner.pid);
  // No owner record (a writer creates it right after mkdir, and removes it just before the commit rename): the name says who wrote it.
  const writer = tempDirWriter(basename(dir));
  return writer !== null && goneFromThisHost(writer.hostTag === hostTag(hostname()), writer.pid);
}

/** A writer of this host, other than this process, whose pid no longer exists. */
function goneFromThisHost(thisHost: boolean, pid: number): boolean {
  return thisHost && pid !== process.pid && !pidAlive(pid);
}

function currentVersion(productDir: string): string | null | undefined {
  try {
    return readManifestSync(productDir)?.version ?? null;
  } catch {
    return undefined; // unreadable manifest: delete nothing
  }
}

export async function collectGarbage(productDir: string, opts: GcOptions = {}): Promise<GcReport> {
  const now = opts.now ?? Date.now();
  const grace = opts.graceMs ?? DEFAULT_GRACE_MS;
  const staleTemp = opts.staleTempMs ?? STALE_TEMP_MS;
  const report: GcReport = { removedTemp: [], marked: [], removedVersions: [] };
  let entries: string[];
  try {
    entries = await readdir(productDir);
  } catch {
    return report;
  }
  const current = currentVersion(productDir);

  for (const name of entries) {
    const path = join(productDir, name);
    if (name.startsWith(TEMP_PREFIX)) {
      if (await tempDirIsDead(path, now, staleTemp)) {
        await rm(path, { recursive: true, force: true });
        report.removedTemp.push(name);
      }
    } else if (name.startsWith(`.${MANIFEST_FILE}.`) && name.endsWith('.tmp')) {
      // Leftover of a manifest write that crashed between write and rename (takes milliseconds when alive).
      const m = await mtimeMs(path);
      if (m !== null && now - m > staleTemp) await unlink(path).catch(() => undefined);
    }
  }
  if (current === undefined) return report;

  const names = new Set(entries);
  for (const name of entries) {
    if (name.endsWith(RETIRED_SUFFIX) && !names.has(name.slice(0, -RETIRED_SUFFIX.length))) {
      await unlink(join(productDir, name)).catch(() => undefined); // marker of an already deleted version
    }
    if (!VERSION_NAME.test(name) || name === current) continue;
    const marker = retiredMarker(productDir, name);
    const markedAt = await mtimeMs(marker);
    if (markedAt === null) {
      await writeFileSynced(marker, new Date(now).toISOString());
      // Re-check: if a concurrent publish made it current meanwhile, take the mark back.
      if (currentVersion(productDir) === name) await unlink(marker).catch(() => undefined);
      else report.marked.push(name);
    } else if (now - markedAt > grace && currentVersion(productDir) !== name) {
      await rm(join(productDir, name), { recursive: true, force: true });
      await unlink(marker).catch(() => undefined);
      report.removedVersions.push(name);
    }
  }
  await boundRetired(productDir, current, now, opts, report);
  return report;
}

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await dirBytes(p) : ((await stat(p).catch(() => null))?.size ?? 0);
  }
  return total;
}

/** Removes the oldest retired versions beyond the count and size bounds (each at least MIN_RETIRED_MS after its mark). */
async function boundRetired(productDir: string, current: string | null, now: number, opts: GcOptions, report: GcReport): Promise<void> {
  if (current === null) return;
  const maxCount = opts.maxRetired ?? MAX_RETIRED;
  const maxBytes = (opts.maxRetiredSizeFactor ?? MAX_RETIRED_SIZE_FACTOR) * (await dirBytes(join(productDir, current)));
  const retired: { name: string; markedAt: number; bytes: number }[] = [];
  for (const name of await readdir(productDir).catch(() => [] as string[])) {
    if (!VERSION_NAME.test(name) || name === current) continue;
    const markedAt = await mtimeMs(retiredMarker(productDir, name));
    if (markedAt !== null) retired.push({ name, markedAt, bytes: await dirBytes(join(productDir, name)) });
  }
  // Most recently retired first: marks are written as versions are replaced (names share a stamp within a second).
  retired.sort((a, b) => b.markedAt - a.markedAt || b.name.localeCompare(a.name));
  let kept = 0;
  let keptBytes = 0;
  for (const r of retired) {
    const within = kept < maxCount && keptBytes + r.bytes <= maxBytes;
    if (within || now - r.markedAt < MIN_RETIRED_MS || currentVersion(productDir) === r.name) {
      kept++;
      keptBytes += r.bytes;
      continue;
    }
    await rm(join(productDir, r.name), { recursive: true, force: true });
    await unlink(retiredMarker(productDir, r.name)).catch(() => undefined);
    report.removedVersions.push(r.name);
  }
}
