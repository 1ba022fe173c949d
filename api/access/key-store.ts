/**
 * Where key records live: one interface, two stores. The embedded store
 * (key-store-file.ts) keeps them in `$METEOPUNTO_DATA/keys.json` for a single
 * process without Redis; the Redis store (key-store-redis.ts) shares them
 * between replicas. A record holds the key's SHA-256, never the key.
 */
import type { KeyKind, Plan } from './contract.js';

export interface KeyRecord {
  /** Public prefix: the record's id. */
  prefix: string;
  /** SHA-256 of the key, hex. */
  hash: string;
  plan: Plan;
  kind: KeyKind;
  name?: string;
  /** Widget keys: origins (scheme://host[:port]) allowed to embed the widget; absent: any. */
  origins?: string[];
  /** ISO 8601, UTC. */
  created: string;
  /** ISO 8601 UTC time of revocation; absent while the key works. */
  revoked?: string;
}

export type KeyUpdate = Partial<Pick<KeyRecord, 'plan' | 'revoked'>>;

export interface KeyStore {
  readonly kind: 'embedded' | 'redis';
  /** Where the records live (file path or Redis URL without password), for messages. */
  readonly location: string;
  /** The record with this prefix, or null. Throws KeyStoreUnavailableError when the store cannot answer. */
  get(prefix: string): Promise<KeyRecord | null>;
  /**
   * The record get() would give now, when this process holds it without I/O
   * (the hot path of a key sent request after request: no promise); undefined
   * otherwise, and then get() is asked.
   */
  cached?(prefix: string): KeyRecord | undefined;
  /** Adds a record; false when the prefix is already taken. */
  insert(record: KeyRecord): Promise<boolean>;
  /** Changes plan or revocation; the updated record, or null when the prefix is unknown. */
  update(prefix: string, change: KeyUpdate): Promise<KeyRecord | null>;
  /** Every record, oldest first. */
  list(): Promise<KeyRecord[]>;
  close(): Promise<void>;
}

/** The key store cannot answer (Redis unreachable): the API answers 503. */
export class KeyStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeyStoreUnavailableError';
  }
}
