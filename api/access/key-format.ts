/**
 * API key format, generation and hashing.
 *
 * A key is `mp_<prefix><secret>`: an 8-character base62 prefix (public: the
 * key's id in `keys list/show/revoke` and in logs) and a 32-character base62
 * secret, both from crypto.randomBytes: 32 × log2(62) ≈ 190 bits of secret.
 *
 * Only SHA-256(key) is stored. A slow password KDF (scrypt, argon2) exists to
 * make guessing low-entropy passwords expensive; a uniformly random 190-bit
 * secret cannot be guessed or brute-forced from its hash at any cost, and a
 * KDF would add milliseconds to every request. The stored hash is compared
 * with crypto.timingSafeEqual.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEY_PREFIX_LENGTH as PREFIX_LENGTH, KEY_TAG } from '../../config/redaction.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// The key's shape is the redaction rule's to know too (config/redaction.ts): declared there, once.
export { KEY_TAG, KEY_PREFIX_LENGTH as PREFIX_LENGTH } from '../../config/redaction.js';
export const SECRET_LENGTH = 32;
const KEY_PATTERN = new RegExp(`^${KEY_TAG}([0-9A-Za-z]{${PREFIX_LENGTH}})[0-9A-Za-z]{${SECRET_LENGTH}}$`);
const PREFIX_PATTERN = new RegExp(`^[0-9A-Za-z]{${PREFIX_LENGTH}}$`);

/** `n` uniformly random base62 characters (rejection sampling: bytes ≥ 248 = 4 × 62 are discarded, so no bias). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n + 8)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}

export interface NewKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateKey(): NewKey {
  const prefix = randomBase62(PREFIX_LENGTH);
  const key = `${KEY_TAG}${prefix}${randomBase62(SECRET_LENGTH)}`;
  return { key, prefix, hash: hashKey(key) };
}

/** SHA-256 of the whole key, hex. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The prefix of a well-formed key, or null: malformed keys are refused without a store lookup. */
export function prefixOf(presented: string): string | null {
  const m = KEY_PATTERN.exec(presented);
  return m ? m[1]! : null;
}

export function isPrefix(value: string): boolean {
  return PREFIX_PATTERN.test(value);
}

/** Constant-time comparison of the presented key's hash with a stored hash (hex). */
export function hashMatches(presented: string, storedHashHex: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = Buffer.from(storedHashHex, 'hex');
  return b.length === a.length && timingSafeEqual(a, b);
}
