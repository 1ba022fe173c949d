/**
 * A per-process memo of keys whose hash has been checked, so that a client
 * sending the same key request after request costs a map lookup instead of a
 * SHA-256 (about 5 % of a weather.php request's CPU in a profile).
 *
 * What it remembers: presented key → the stored hash (hex) the key was found
 * to match. It is asked only after the store has returned the key's record
 * (./authenticate.ts verifyKey), and a hit needs the record's hash to be that
 * very hash; everything else about the record (revoked, plan, origins) is
 * read from the record as before. So the memo skips the hash computation,
 * never a check: a revocation or a deleted record applies at once (the record
 * cache is invalidated by pub/sub, ./key-changes.ts), a wrong key with a
 * known prefix is never in it (only keys that matched are remembered, and an
 * entry is found only by the whole key), and a record re-issued with another
 * hash misses and hashes again.
 *
 * Bounded (least recently used out) at {@link KEY_MEMO_ENTRIES}: enough for
 * the active keys of one process, small enough not to matter in memory
 * (≈ 4,096 × 200 bytes). It holds presented keys in clear, as the request
 * objects of the process do while they run; the store still holds only the
 * hashes.
 */
import { LRUCache } from 'lru-cache';
import { hashMatches } from './key-format.js';

/** Keys one process remembers. */
export const KEY_MEMO_ENTRIES = 4096;

export class KeyHashMemo {
  private readonly verified: LRUCache<string, string>;

  /** `check`: the hash comparison a miss runs (./key-format.ts hashMatches; a test may count its calls). */
  constructor(max = KEY_MEMO_ENTRIES, private readonly check: (presented: string, storedHashHex: string) => boolean = hashMatches) {
    this.verified = new LRUCache<string, string>({ max });
  }

  /** True when SHA-256(`presented`) is `storedHashHex`: remembered, or computed (constant time) and then remembered. */
  matches(presented: string, storedHashHex: string): boolean {
    if (this.verified.get(presented) === storedHashHex) return true;
    if (!this.check(presented, storedHashHex)) return false;
    this.verified.set(presented, storedHashHex);
    return true;
  }

  /** True when `presented` was found to match `storedHashHex` before (no hash computed). */
  remembers(presented: string, storedHashHex: string): boolean {
    return this.verified.get(presented) === storedHashHex;
  }

  /** Keys remembered. */
  get size(): number {
    return this.verified.size;
  }
}

/** The memo of this process, used by verifyKey unless it is given another. */
export const processKeyMemo = new KeyHashMemo();
