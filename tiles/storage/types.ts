/**
 * The tile store's storage: where the published stores live, a local
 * directory or an S3-compatible bucket, behind one small interface.
 *
 * Keys are '/'-separated paths below the tiles root, as they appear on disk
 * under `$METEOPUNTO_DATA/tiles`: `nwp/current.json`,
 * `nwp/<version>.zarr/temperature_2m/0.0.0`, `reanalysis/index.json`,
 * `reanalysis/1950/current.json` (tiles/layout.ts names them).
 *
 * Everything is asynchronous except {@link SyncView}: the point reader's hot
 * path checks manifests synchronously, so each implementation says how it
 * answers without a promise (the directory: a stat and a read; a bucket: the
 * last state its background poller saw).
 */

/** One object, as a listing gives it. */
export interface ObjectInfo {
  key: string;
  size: number;
  /** Last modification (a bucket: LastModified; a directory: mtime), ms since the epoch. */
  modifiedMs: number;
}

/** What identifies one written state of an object: `tag` changes whenever the object is replaced. */
export interface ObjectStamp {
  /** Opaque (a bucket: the ETag; a directory: inode, mtime and size). */
  tag: string;
  size: number;
  modifiedMs: number;
}

/** One level of a listing: objects directly under a prefix, and the names of the "directories" below it. */
export interface Children {
  files: ObjectInfo[];
  /** Names (not keys) of the next level's prefixes, sorted. */
  dirs: string[];
}

/** Synchronous answers for the point reader (see the module comment). */
export interface SyncView {
  /** The object's stamp tag, or '' when it is absent (or not known yet). */
  stamp(key: string): string;
  /** The object's text, or null when absent (or not known yet). */
  text(key: string): string | null;
  /** Names of the sub-prefixes ("directories") directly under `prefix` ('' or ending in '/'), sorted; [] when none is known yet. */
  dirs(prefix: string): string[];
}

export interface TileStorage {
  readonly kind: 'local' | 's3';
  /** For messages: the directory, or `s3://bucket/prefix`. */
  readonly location: string;
  /** The whole object; null when absent. */
  get(key: string): Promise<Uint8Array | null>;
  /** `length` bytes from `offset` (fewer at the end); null when absent. */
  getRange(key: string, offset: number, length: number): Promise<Uint8Array | null>;
  /** Replace the object atomically and durably: a reader sees the old content or the new, never a mix. */
  put(key: string, data: Uint8Array | string): Promise<void>;
  /**
   * Replace the object only while its stamp tag is `expected` (null: only
   * while it is absent); false when it is not (another writer got there
   * first), and nothing is written.
   */
  putIf(key: string, data: Uint8Array | string, expected: string | null): Promise<boolean>;
  /** The object's stamp; null when absent. */
  head(key: string): Promise<ObjectStamp | null>;
  /** Every object whose key starts with `prefix` (at any depth), sorted by key. */
  list(prefix: string): Promise<ObjectInfo[]>;
  /** The objects and sub-prefixes directly under `prefix` (a key ending in '/', or '' for the root). */
  children(prefix: string): Promise<Children>;
  /** Remove the object (absent: nothing to do). */
  delete(key: string): Promise<void>;
  /** Remove every object under `prefix` (which must end in '/'); returns how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Make the files of the finished local directory `dir` the objects under
   * `prefix` (ending in '/'): the directory renames it into place (the same
   * filesystem, one atomic step), a bucket uploads every file. The local
   * directory is gone afterwards either way.
   */
  commitDir(dir: string, prefix: string): Promise<void>;
  /**
   * Where a writer builds a version before {@link commitDir}: beside the
   * store on the same filesystem for the directory, a local staging
   * directory for a bucket. `storeKey` is `nwp` or `reanalysis/1950`.
   */
  stagingDir(storeKey: string): string;
  readonly sync: SyncView;
  /**
   * The directory only: hold the switch of `storeKey` (its current.json)
   * against every other writer on the filesystem until the returned
   * function is called; a holder that dies loses it after a few seconds.
   * A bucket has none: its switch is a conditional write ({@link putIf}).
   */
  lockSwitch?(storeKey: string): Promise<() => Promise<void>>;
  /**
   * The directory only: the file holding `key`, so that decode threads read
   * chunks by path as before (no bytes cross threads); absent for a bucket.
   */
  localPath?(key: string): string;
  /**
   * A bucket only: the GETs a warm keeps in flight, fetching the chunks of the blocks after the one it decodes
   * (`METEOPUNTO_TILES_WARM_GETS`; 0: one block's at a time): each GET waits the bucket's latency, which the
   * decodes then cover (tiles/read/warm.ts). A directory needs none (its reads take microseconds).
   */
  readonly warmGets?: number;
  /**
   * A bucket only: load the documents at `keys` (manifests) into the
   * synchronous view now, and keep them fresh. A directory needs none.
   */
  prime?(keys: readonly string[], listings?: readonly string[]): Promise<void>;
}

/** `a/b` + `c` → `a/b/c` (keys never start with '/'). */
export function joinKey(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}
