/**
 * Names inside a product directory `tiles/<product>/`:
 *
 * - `current.json`: the manifest naming the live version (tiles/manifest.ts);
 * - `<UTC stamp>-<hex>.zarr`: complete versions (only the manifest's is read);
 * - `<version>.retired`: mark of a version no longer current (tiles/ops/gc.ts);
 * - `.tmp-<pid>-<host tag>-<hex>/`: a version being written, with `.owner.json` inside;
 * - `.current.json.<pid>.<hex>.tmp`: a manifest being written;
 * - `.switch.lock/`: held by a writer while it checks and replaces current.json (tiles/storage/local.ts).
 *
 * A period product (manifest layout 'periods') has one such directory per
 * period, `tiles/<product>/<year>/`, and `tiles/<product>/index.json`
 * listing them (tiles/period-index.ts).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export const MANIFEST_FILE = 'current.json';
/** Period products: `tiles/<product>/index.json` lists the periods, each in `tiles/<product>/<period>/`. */
export const PERIOD_INDEX_FILE = 'index.json';
/** A period is a UTC year. */
export const PERIOD_NAME = /^\d{4}$/;
export const VERSION_NAME = /^\d{8}T\d{6}Z-[0-9a-f]{6,}\.zarr$/;
export const TEMP_PREFIX = '.tmp-';
export const OWNER_FILE = '.owner.json';
export const RETIRED_SUFFIX = '.retired';
export const SWITCH_LOCK = '.switch.lock';

export function retiredMarker(productDir: string, version: string): string {
  return join(productDir, `${version}${RETIRED_SUFFIX}`);
}

/** Eight hex digits naming a host in temp dir names (host names may hold any character). */
export function hostTag(host: string): string {
  return createHash('sha256').update(host).digest('hex').slice(0, 8);
}

/**
 * A writer's temp dir name carries its pid and host tag, so that a writer
 * killed before its owner record is whole, or after it removed the record to
 * commit, is still known dead from the name alone (tiles/ops/gc.ts).
 */
export function tempDirName(pid: number, host: string, random: string): string {
  return `${TEMP_PREFIX}${pid}-${hostTag(host)}-${random}`;
}

/** The writer a temp dir's name records, or null (a name of an older release: `.tmp-<hex>`). */
export function tempDirWriter(name: string): { pid: number; hostTag: string } | null {
  const m = /^\.tmp-(\d+)-([0-9a-f]{8})-[0-9a-f]+$/.exec(name);
  return m ? { pid: Number(m[1]), hostTag: m[2]! } : null;
}
