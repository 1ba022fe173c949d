/**
 * Moving keys from the embedded store (`$METEOPUNTO_DATA/keys.json`) into
 * Redis. With REDIS_URL set the file is not read, so keys issued before an
 * operator set it would be refused (401) without a word: the server and the
 * `keys` CLI say so in one line ({@link unimportedNotice}) and
 * `meteopunto keys import` ({@link importKeys}) copies the records.
 *
 * Records are copied as they are, hashes only (a record never held a key).
 * Each one is inserted only if its prefix is free (the store's atomic
 * insert), so the import can run again, or twice at once, and changes
 * nothing the second time. A record already in Redis keeps Redis's state
 * (Redis is the live store once REDIS_URL is set), with one exception: a
 * revocation in the file is applied, so that importing never revives a key.
 * A prefix held in Redis by another key's hash is a conflict, left alone and
 * reported. The file stays as it was: a backup, no longer read.
 */
import { parseOrigin } from './authenticate.js';
import { isPrefix } from './key-format.js';
import { isPlan } from './plans.js';
import type { KeyRecord, KeyStore } from './key-store.js';

export interface ImportReport {
  /** Prefixes inserted into Redis. */
  imported: string[];
  /** Prefixes already in Redis with the same hash, left as they are. */
  present: string[];
  /** Prefixes present in Redis, revoked in the file: revoked in Redis too. */
  revoked: string[];
  /** Prefixes Redis holds with a different hash: not touched. */
  conflicts: string[];
}

/**
 * Checks every record of the file before anything is written: a damaged
 * record stops the import naming it, rather than going live half-read.
 */
export function checkRecords(records: readonly unknown[], file: string): KeyRecord[] {
  return records.map((r, i) => {
    const why = recordProblem(r);
    if (why) throw new Error(`${file}: record ${i + 1}${prefixOf(r)}: ${why}; nothing imported`);
    return r as KeyRecord;
  });
}

function prefixOf(r: unknown): string {
  const p = (r as { prefix?: unknown } | null)?.prefix;
  return typeof p === 'string' && isPrefix(p) ? ` (${p})` : '';
}

const isoTime = (v: unknown): boolean => typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v));

function recordProblem(r: unknown): string | undefined {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return 'not an object';
  const o = r as Record<string, unknown>;
  if (typeof o.prefix !== 'string' || !isPrefix(o.prefix)) return 'prefix is not 8 letters or digits';
  if (typeof o.hash !== 'string' || !/^[0-9a-f]{64}$/.test(o.hash)) return 'hash is not a SHA-256 in hex';
  if (typeof o.plan !== 'string' || !isPlan(o.plan)) return `unknown plan ${JSON.stringify(o.plan)}`;
  if (o.kind !== 'api' && o.kind !== 'widget') return `unknown kind ${JSON.stringify(o.kind)}`;
  if (!isoTime(o.created)) return 'created is not an ISO 8601 time';
  if (o.revoked !== undefined && !isoTime(o.revoked)) return 'revoked is not an ISO 8601 time';
  if (o.name !== undefined && typeof o.name !== 'string') return 'name is not a string';
  if (o.origins !== undefined && !(Array.isArray(o.origins) && o.origins.every((x) => typeof x === 'string' && parseOrigin(x) === x))) {
    return 'origins is not a list of http(s) origins';
  }
  return undefined;
}

/** Copies `records` into `to` (the Redis store); see the file comment for the rules. */
export async function importKeys(records: readonly KeyRecord[], to: KeyStore): Promise<ImportReport> {
  const report: ImportReport = { imported: [], present: [], revoked: [], conflicts: [] };
  for (const r of records) {
    if (await to.insert(r)) {
      report.imported.push(r.prefix);
      continue;
    }
    const there = await to.get(r.prefix);
    if (!there || there.hash !== r.hash) report.conflicts.push(r.prefix);
    else if (r.revoked && !there.revoked) {
      await to.update(r.prefix, { revoked: r.revoked });
      report.revoked.push(r.prefix);
    } else report.present.push(r.prefix);
  }
  return report;
}

/**
 * One line when the keys file holds working keys that Redis lacks (they
 * would be refused), else undefined. `fileRecords` are the file's records.
 */
export async function unimportedNotice(fileRecords: readonly KeyRecord[], file: string, redis: KeyStore): Promise<string | undefined> {
  const active = fileRecords.filter((r) => !r.revoked);
  const there = await Promise.all(active.map((r) => redis.get(r.prefix)));
  const missing = active.filter((r, i) => there[i]?.hash !== r.hash).length;
  if (missing === 0) return undefined;
  const keys = missing === 1 ? '1 key' : `${missing} keys`;
  return `access: ${keys} in ${file} not in Redis: REDIS_URL is set, so that file is not read and ${missing === 1 ? 'it is' : 'they are'} refused; move them with \`meteopunto keys import\``;
}
