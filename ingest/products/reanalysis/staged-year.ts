/**
 * One year of a staged reanalysis ingest (./streamed.ts) between its first
 * file and its publish: its times, its variables' metadata and, per
 * time-varying variable, a spill file of float32 steps in a temp directory of
 * the year's store (tiles/write/plane-spill.ts). The year's directory is
 * locked from open to close, as ./years.ts locks it, so no other ingest of
 * the year runs meanwhile; a year already published is refused (the merge
 * with it reads the published year whole).
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { productDir } from '../../../config/paths.js';
import { openLiveVersion } from '../../../tiles/read/field-reader.js';
import type { ProductVersionInput, VariableInput } from '../../../tiles/types.js';
import { storeKey } from '../../../tiles/write/writer.js';
import { createTempVersion, discardTempVersion, type TempVersion } from '../../../tiles/write/publish.js';
import { PlaneSpill } from '../../../tiles/write/plane-spill.js';
import { tileStorage } from '../../../tiles/storage/open.js';
import type { Product } from '../product.js';

export interface StagedYear {
  year: number;
  times: Date[];
  /** Metadata of every variable; statics with their values, series with none (they are in `spills`). */
  variables: Record<string, VariableInput>;
  spills: Map<string, PlaneSpill>;
  temp: TempVersion;
  release: () => Promise<void>;
}

/** A year is published already: staging it would replace, not merge (the caller runs the whole-year path). */
export class YearPublished extends Error {}

/** Metadata of a variable, for comparing files: everything but the values (statics: also the values' length). */
export function metaKey(v: VariableInput): string {
  const { values, ...rest } = v;
  return JSON.stringify({ ...rest, ...(v.static ? { cells: values[0]?.length } : {}) });
}

/** Lock the year, refuse a published one (YearPublished), open a spill per time-varying variable of `part`. */
export async function openStagedYear(root: string, product: Product, year: number, part: ProductVersionInput): Promise<StagedYear> {
  const dir = productDir(root, `${product.name}/${year}`);
  mkdirSync(dir, { recursive: true });
  const release = await lockfile.lock(dir, { retries: { retries: 600, minTimeout: 200, maxTimeout: 2000 }, stale: 60_000, realpath: false });
  try {
    if (await openLiveVersion(root, `${product.name}/${year}`)) throw new YearPublished(`${year} is published: the merge reads it whole`);
    const temp = await createTempVersion(tileStorage(root).stagingDir(storeKey({ product: product.name, meta: { layout: 'periods', period: String(year) } })));
    const cells = part.grid.nx * part.grid.ny;
    const spills = new Map<string, PlaneSpill>();
    const variables: Record<string, VariableInput> = {};
    for (const [name, v] of Object.entries(part.variables)) {
      variables[name] = v.static ? v : { ...v, values: [] };
      if (!v.static) spills.set(name, new PlaneSpill(join(temp.dir, `${name}.f32`), cells));
    }
    return { year, times: [], variables, spills, temp, release };
  } catch (e) {
    await release();
    throw e;
  }
}

/** Close the spills, remove the temp directory, release the lock. */
export async function closeStagedYear(y: StagedYear): Promise<void> {
  for (const s of y.spills.values()) s.close();
  await discardTempVersion(y.temp);
  await y.release().catch(() => undefined);
}
