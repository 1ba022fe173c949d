/**
 * `writeProductVersion`: the tile store's single entry point for ingest.
 * Writes a complete Zarr v2 store for one product version into a private temp
 * directory, then publishes it atomically (tiles/write/publish.ts), updates the
 * period index of period products (tiles/period-index.ts) and cleans up dead
 * temp dirs and expired versions (tiles/ops/gc.ts).
 */
import { gridBounds } from '../../geo/grid.js';
import type { Manifest } from '../manifest.js';
import type { ProductVersionInput, PublishResult } from '../types.js';
import { writeZarrStore, type PlaneSources, type StoreLayout } from './zarr-writer.js';
import { writeChecksums } from './checksums.js';
import { createTempVersion, commitVersion, discardTempVersion, newVersionName } from './publish.js';
import { collectGarbage, type GcOptions } from '../ops/gc.js';
import { updatePeriodIndex } from '../period-index.js';
import { manifestKey } from '../manifest-file.js';
import { collectBucketGarbage } from '../ops/bucket-gc.js';
import { tileStorage, type TilesAt } from '../storage/open.js';

export interface WriteOptions {
  /** How long a replaced version stays on disk for readers that still hold it (default 10 min). */
  graceMs?: number;
  /** Heartbeat silence after which a temp dir counts as dead (default 15 min). */
  staleTempMs?: number;
  /** Variables whose planes come from a spill (./plane-spill.ts) rather than their `values`. */
  planes?: PlaneSources;
}

const PRODUCT_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** The store key of a version input: `<product>` or, for a period product, `<product>/<period>`. */
export function storeKey(input: Pick<ProductVersionInput, 'product' | 'meta'>): string {
  return input.meta?.layout === 'periods' ? `${input.product}/${input.meta.period}` : input.product;
}

/**
 * Write and publish a new version of `input.product` under `<product>/` of
 * the root's tile storage (`<root>/tiles/<product>/`; period products:
 * `<product>/<period>/`). On any failure the previous version stays live and
 * the temp directory is removed.
 */
export async function writeProductVersion(root: TilesAt, input: ProductVersionInput, opts: WriteOptions = {}): Promise<PublishResult> {
  if (!PRODUCT_NAME.test(input.product)) throw new RangeError(`invalid product name '${input.product}' (lower-case letters, digits, '-', '_')`);
  const storage = tileStorage(root);
  const key = storeKey(input);
  const dir = storage.stagingDir(key);
  const gc: GcOptions = { graceMs: opts.graceMs, staleTempMs: opts.staleTempMs };
  await collectGarbage(dir, gc);
  // On a bucket the switch is conditional on the manifest this writer started from (./publish.ts).
  const base = storage.kind === 's3' ? ((await storage.head(manifestKey(key)))?.tag ?? null) : undefined;

  const published = new Date();
  const version = newVersionName(published);
  const temp = await createTempVersion(dir);
  let manifest: Manifest;
  try {
    const layout = await writeZarrStore(temp.dir, input, {
      Conventions: 'CF-1.8',
      title: `Meteopunto ${input.product} tiles`,
      product: input.product,
      ...(input.meta?.period ? { period: input.meta.period } : {}),
      version,
      published: published.toISOString(),
      source: input.source.files.join(', '),
      ...(input.source.model ? { model: input.source.model } : {}),
      ...(input.source.run ? { run: input.source.run } : {}),
      ...(input.source.sample ? { comment: 'SAMPLE DATA, not a real forecast' } : {}),
      history: `${published.toISOString()} written by meteopunto tiles writer`,
    }, opts.planes);
    manifest = buildManifest(input, version, published, layout);
    await writeChecksums(temp.dir);
    await commitVersion(storage, key, temp, manifest, base);
  } catch (err) {
    await discardTempVersion(temp);
    throw err;
  }
  if (manifest.layout === 'periods') await updatePeriodIndex(storage, input.product);
  // Clean-up failures never undo a successful publish; the next publish retries them.
  await collectGarbage(dir, gc).catch(() => undefined);
  if (storage.kind === 's3') await collectBucketGarbage(storage, key, { graceMs: opts.graceMs }).catch(() => undefined);
  return { product: input.product, version, path: storage.localPath?.(`${key}/${version}`) ?? `${storage.location}/${key}/${version}`, manifest };
}

/** The manifest of a version: the store's layout plus what the catalogue says about the product (defaults for bare inputs). */
export function buildManifest(input: ProductVersionInput, version: string, published: Date, layout: StoreLayout): Manifest {
  const meta = input.meta ?? {};
  const times = input.times.map((t) => t.toISOString());
  const timeLayout = meta.layout ?? (times.length === 0 ? 'static' : 'forecast');
  return {
    format: 2,
    product: input.product,
    ...(meta.layout === 'periods' ? { period: meta.period! } : {}),
    version,
    published: published.toISOString(),
    grid: input.grid,
    times,
    chunk: layout.chunk,
    variables: layout.variables,
    layout: timeLayout,
    coverage: times.length > 0 ? { from: times[0]!, to: times[times.length - 1]! } : null,
    region: meta.region ?? { name: `${input.product} grid`, bbox: gridBounds(input.grid) },
    feeds: [...(meta.feeds ?? [])],
    priority: meta.priority ?? 0,
    source: input.source,
    ...(meta.derivedFrom ? { derived_from: meta.derivedFrom } : {}),
  };
}
