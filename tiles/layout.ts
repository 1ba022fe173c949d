/**
 * Names inside a product directory `tiles/<product>/`:
 *
 * - `current.json`: the manifest naming the live version (tiles/manifest.ts);
 * - `<UTC stamp>-<hex>.zarr`: complete versions (only the manifest's is read);
 * - `<version>.retired`: mark of a version no longer current (tiles/gc.ts);
 * - `.tmp-<hex>/`: a version being written, with `.owner.json` inside;
 * - `.current.json.<pid>.<hex>.tmp`: a manifest being written.
 *
 * A period product (manifest layout 'periods') has one such directory per
 * period, `tiles/<product>/<year>/`, and `tiles/<product>/index.json`
 * listing them (tiles/period-index.ts).
 */
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

export function retiredMarker(productDir: string, version: string): string {
  return join(productDir, `${version}${RETIRED_SUFFIX}`);
}
