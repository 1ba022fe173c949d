/**
 * The tile storage on an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, R2,
 * ...) through the official AWS SDK v3. Keys are object keys under the
 * configured prefix. Every request is bounded in time: one that has not
 * completed after `timeoutMs` fails with {@link StorageUnavailable}, so a slow
 * or unreachable bucket is an error, never a hang.
 *
 * The synchronous view the point reader needs is a poller (./bucket-view.ts):
 * manifests are re-read in the background and the hot path reads the last
 * state seen.
 *
 * The SDK is imported on first use, so processes on a local directory never
 * load it (it warns once on Node < 22 about its future requirements).
 */
import { readdir, rm } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { forEachLimit } from '../write/durable-fs.js';
import { BucketView } from './bucket-view.js';
import { StorageUnavailable } from './errors.js';
import type { DiskCache } from './disk-cache.js';
import type { Children, ObjectInfo, ObjectStamp, TileStorage } from './types.js';

type Sdk = typeof import('@aws-sdk/client-s3');

/** A taken lock: `lost` aborts when it can no longer be trusted (./redis-lock.ts). */
export interface HeldLock {
  release(): Promise<void>;
  lost: AbortSignal;
}

/** A lock held around a conditional replace where the store cannot be trusted to enforce it (./redis-lock.ts). */
export type LockFn = (name: string) => Promise<HeldLock>;

export interface S3StorageOptions {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing '/'. */
  prefix: string;
  /** Where writers build versions before uploading them (a local directory). */
  stagingDir: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Explicit credentials (tests); absent: the SDK's standard chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  timeoutMs: number;
  /** Background re-read of manifests for the synchronous view, ms (default 1000). */
  pollMs?: number;
  lock?: LockFn;
  /** Parallel uploads of one version (default 8). */
  uploadLanes?: number;
  /** A local disk cache of the objects of versions (./disk-cache.ts). */
  diskCache?: DiskCache;
  /** GETs a warm keeps in flight (types.ts, `warmGets`; default {@link DEFAULT_WARM_GETS}). */
  warmGets?: number;
}

/** GETs a warm keeps in flight by default: measured in docs/benchmarks-journal.md (a switch's warm on a bucket 30 ms away). */
export const DEFAULT_WARM_GETS = 8;

/** Objects that never change once written: everything inside a version (`<store>/<version>.zarr/…`). */
function immutable(key: string): boolean {
  return key.includes('.zarr/');
}

function status(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function notFound(err: unknown): boolean {
  const name = (err as Error).name;
  return name === 'NoSuchKey' || name === 'NotFound' || status(err) === 404;
}

export class S3Storage implements TileStorage {
  readonly kind = 's3' as const;
  readonly location: string;
  readonly sync: BucketView;
  readonly warmGets: number;
  private client: Promise<{ sdk: Sdk; s3: S3Client }> | undefined;

  constructor(private readonly opts: S3StorageOptions) {
    this.location = `s3://${opts.bucket}${opts.prefix ? `/${opts.prefix}` : ''}`;
    this.sync = new BucketView(this, opts.pollMs ?? 1000);
    this.warmGets = opts.warmGets ?? DEFAULT_WARM_GETS;
  }

  private sdk(): Promise<{ sdk: Sdk; s3: S3Client }> {
    this.client ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: this.opts.region,
        ...(this.opts.endpoint ? { endpoint: this.opts.endpoint } : {}),
        forcePathStyle: this.opts.forcePathStyle,
        ...(this.opts.credentials ? { credentials: this.opts.credentials } : {}),
        // Checksums only where the API requires them: many S3-compatible stores reject the newer default trailers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 2,
      }),
    }));
    return this.client;
  }

  private full(key: string): string {
    if (key.startsWith('/') || key.split('/').includes('..')) throw new RangeError(`invalid tile storage key '${key}'`);
    return this.opts.prefix ? `${this.opts.prefix}/${key}` : key;
  }

  private short(full: string): string {
    return this.opts.prefix ? full.slice(this.opts.prefix.length + 1) : full;
  }

  /** Send one command, bounded by the timeout (and `cancel`); a timeout or a network failure is StorageUnavailable. */
  private async send<T>(what: string, make: (sdk: Sdk) => object, cancel?: AbortSignal): Promise<T> {
    const { sdk, s3 } = await this.sdk();
    cancel?.throwIfAborted();
    const signal = cancel ? AbortSignal.any([AbortSignal.timeout(this.opts.timeoutMs), cancel]) : AbortSignal.timeout(this.opts.timeoutMs);
    // Each command's own input and output types are kept at the call sites; send() takes any of them.
    const send = s3.send.bind(s3) as (command: object, options: { abortSignal: AbortSignal }) => Promise<unknown>;
    try {
      return (await send(make(sdk), { abortSignal: signal })) as T;
    } catch (err) {
      if (status(err) !== undefined && status(err)! < 500) throw err;
      if (cancel?.aborted) throw cancel.reason;
      const why = signal.aborted ? `no answer within ${this.opts.timeoutMs} ms` : (err as Error).message || (err as Error).name;
      throw new StorageUnavailable(`${this.location}: ${what} failed: ${why}`, { cause: err });
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    const cache = this.opts.diskCache && immutable(key) ? this.opts.diskCache : undefined;
    const cached = cache ? await cache.get(key) : null;
    if (cached) return cached;
    const bytes = await this.fetch(key);
    if (cache && bytes) await cache.put(key, bytes).catch(() => undefined); // a full or failing disk only costs the cache
    return bytes;
  }

  private async fetch(key: string): Promise<Uint8Array | null> {
    try {
      const r = await this.send<{ Body?: { transformToByteArray(): Promise<Uint8Array> } }>(`GET ${key}`, (sdk) => new sdk.GetObjectCommand({ Bucket: this.opts.bucket, Key: this.full(key) }));
      return (await r.Body?.transformToByteArray()) ?? new Uint8Array(0);
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Uint8Array | null> {
    try {
      const r = await this.send<{ Body?: { transformToByteArray(): Promise<Uint8Array> } }>(`GET ${key} (range)`, (sdk) =>
        new sdk.GetObjectCommand({ Bucket: this.opts.bucket, Key: this.full(key), Range: `bytes=${offset}-${offset + length - 1}` }));
      return (await r.Body?.transformToByteArray()) ?? new Uint8Array(0);
    } catch (err) {
      if (notFound(err)) return null;
      if (status(err) === 416) return new Uint8Array(0); // the range starts past the end
      throw err;
    }
  }

  async put(key: string, data: Uint8Array | string): Promise<void> {
    await this.send(`PUT ${key}`, (sdk) => new sdk.PutObjectCommand({ Bucket: this.opts.bucket, Key: this.full(key), Body: typeof data === 'string' ? Buffer.from(data) : data }));
  }

  /**
   * Conditional replace: the request carries If-Match / If-None-Match, which
   * AWS S3, MinIO and R2 enforce (412 when another writer got there first);
   * with a lock (Redis) the compare and the write also run under it, for
   * stores that ignore the headers (s3rver, the test server, does). A lock
   * lost before the write (its renewal failed) stops it: the error says so,
   * and nothing is written unless the PUT was already under way.
   */
  async putIf(key: string, data: Uint8Array | string, expected: string | null): Promise<boolean> {
    const lock = this.opts.lock ? await this.opts.lock(`${this.location}/${key}`) : null;
    try {
      if (((await this.head(key))?.tag ?? null) !== expected) return false;
      await this.send(`PUT ${key} (conditional)`, (sdk) => new sdk.PutObjectCommand({
        Bucket: this.opts.bucket, Key: this.full(key), Body: typeof data === 'string' ? Buffer.from(data) : data,
        ...(expected === null ? { IfNoneMatch: '*' } : { IfMatch: expected }),
      }), lock?.lost);
      return true;
    } catch (err) {
      if (status(err) === 412 || status(err) === 409) return false;
      throw err;
    } finally {
      await lock?.release();
    }
  }

  async head(key: string): Promise<ObjectStamp | null> {
    try {
      const r = await this.send<{ ETag?: string; ContentLength?: number; LastModified?: Date }>(`HEAD ${key}`, (sdk) => new sdk.HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.full(key) }));
      return { tag: r.ETag ?? '', size: r.ContentLength ?? 0, modifiedMs: r.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  /** Every page of a listing. */
  private async pages(prefix: string, delimiter: boolean): Promise<{ files: ObjectInfo[]; dirs: string[] }> {
    const files: ObjectInfo[] = [];
    const dirs: string[] = [];
    let token: string | undefined;
    do {
      type Page = { Contents?: { Key?: string; Size?: number; LastModified?: Date }[]; CommonPrefixes?: { Prefix?: string }[]; IsTruncated?: boolean; NextContinuationToken?: string };
      const page: Page = await this.send<Page>(`LIST ${prefix}`, (sdk) => new sdk.ListObjectsV2Command({
        Bucket: this.opts.bucket, Prefix: this.full(prefix), ...(delimiter ? { Delimiter: '/' } : {}), ...(token ? { ContinuationToken: token } : {}),
      }));
      for (const o of page.Contents ?? []) if (o.Key) files.push({ key: this.short(o.Key), size: o.Size ?? 0, modifiedMs: o.LastModified?.getTime() ?? 0 });
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) dirs.push(this.short(p.Prefix).slice(prefix.length).replace(/\/$/, ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { files, dirs: dirs.sort() };
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    return (await this.pages(prefix, false)).files;
  }

  async children(prefix: string): Promise<Children> {
    // The bucket's root with no prefix configured: '' lists everything at the top.
    return this.pages(prefix, true);
  }

  async delete(key: string): Promise<void> {
    await this.send(`DELETE ${key}`, (sdk) => new sdk.DeleteObjectCommand({ Bucket: this.opts.bucket, Key: this.full(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!prefix.endsWith('/')) throw new RangeError(`deletePrefix needs a prefix ending in '/', got '${prefix}'`);
    const keys = (await this.list(prefix)).map((o) => o.key);
    // DeleteObjects takes up to 1000 keys a request.
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await this.send(`DELETE ${prefix} (${batch.length} objects)`, (sdk) => new sdk.DeleteObjectsCommand({
        Bucket: this.opts.bucket, Delete: { Objects: batch.map((k) => ({ Key: this.full(k) })), Quiet: true },
      }));
    }
    return keys.length;
  }

  async commitDir(dir: string, prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new RangeError(`commitDir needs a prefix ending in '/', got '${prefix}'`);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
    await forEachLimit(files, this.opts.uploadLanes ?? 8, async (f) => this.put(prefix + f, await readFile(join(dir, f))));
    await rm(dir, { recursive: true, force: true });
  }

  stagingDir(storeKey: string): string {
    return join(this.opts.stagingDir, storeKey);
  }

  /** Load the documents at `keys` and the listings of `listings` into the synchronous view now (and keep them fresh). */
  prime(keys: readonly string[], listings: readonly string[] = []): Promise<void> {
    return this.sync.prime(keys, listings);
  }

  /** Stop the background polling (the process can then exit on its own). */
  close(): void {
    this.sync.close();
  }
}
