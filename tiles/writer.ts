/**
 * `writeProductVersion`: the tile store's single entry point for ingest.
 * Writes a complete Zarr v2 store for one product version into a private temp
 * directory, then publishes it atomically (tiles/publish.ts) and cleans up
 * dead temp dirs and expired versions (tiles/gc.ts).
 */
import { productDir } from '../config/paths.js';
import type { Manifest } from './manifest.js';
import type { ProductVersionInput, PublishResult } from './types.js';
import { writeZarrStore } from './zarr-writer.js';
import { createTempVersion, commitVersion, discardTempVersion, newVersionName } from './publish.js';
import { collectGarbage, type GcOptions } from './gc.js';

export interface WriteOptions {
  /** How long a replaced version stays on disk for readers that still hold it (default 10 min). */
  graceMs?: number;
  /** Heartbeat silence after which a temp dir counts as dead (default 15 min). */
  staleTempMs?: number;
}

const PRODUCT_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * Write and publish a new version of `input.product` under
 * `<root>/tiles/<product>/`. On any failure the previous version stays live
 * and the temp directory is removed.
 */
export async function writeProductVersion(root: string, input: ProductVersionInput, opts: WriteOptions = {}): Promise<PublishResult> {
  if (!PRODUCT_NAME.test(input.product)) throw new RangeError(`invalid product name '${input.product}' (lower-case letters, digits, '-', '_')`);
  const dir = productDir(root, input.product);
  const gc: GcOptions = { graceMs: opts.graceMs, staleTempMs: opts.staleTempMs };
  await collectGarbage(dir, gc);

  const published = new Date();
  const version = newVersionName(published);
  const temp = await createTempVersion(dir);
  let manifest: Manifest;
  try {
    const layout = await writeZarrStore(temp.dir, input, {
      Conventions: 'CF-1.8',
      title: `Meteopunto ${input.product} tiles`,
      product: input.product,
      version,
      published: published.toISOString(),
      source: input.source.files.join(', '),
      ...(input.source.model ? { model: input.source.model } : {}),
      ...(input.source.run ? { run: input.source.run } : {}),
      ...(input.source.sample ? { comment: 'SAMPLE DATA, not a real forecast' } : {}),
      history: `${published.toISOString()} written by meteopunto tiles writer`,
    });
    manifest = {
      format: 1,
      product: input.product,
      version,
      published: published.toISOString(),
      grid: input.grid,
      times: input.times.map((t) => t.toISOString()),
      chunk: layout.chunk,
      variables: layout.variables,
      source: input.source,
    };
    await commitVersion(dir, temp, manifest);
  } catch (err) {
    await discardTempVersion(temp);
    throw err;
  }
  // Clean-up failures never undo a successful publish; the next publish retries them.
  await collectGarbage(dir, gc).catch(() => undefined);
  return { product: input.product, version, path: `${dir}/${version}`, manifest };
}
