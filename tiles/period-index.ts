/**
 * `tiles/<product>/index.json` of a period product: every published period
 * with its live version and coverage, so that the API can name the periods
 * present without listing directories, and operators see them at a glance.
 *
 * Periods publish independently and in parallel (one worker per year), so
 * the index is never edited: each publisher rebuilds it from the period
 * manifests on disk and writes it atomically, then checks it against a fresh
 * scan and writes again until they agree. Whichever publisher writes last
 * has checked afterwards that nothing published before that check is
 * missing, so the index converges to every published period.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PeriodIndex } from './manifest.js';
import { jsonDocument, readManifest, readManifestSync } from './manifest-file.js';
import { PERIOD_INDEX_FILE, PERIOD_NAME } from './layout.js';
import type { SyncView, TileStorage } from './storage/types.js';

/** The index as the period manifests on disk say it should be. */
export function scanPeriods(productDir: string, product: string): PeriodIndex {
  const periods: PeriodIndex['periods'] = {};
  let names: string[] = [];
  try {
    names = readdirSync(productDir).filter((n) => PERIOD_NAME.test(n)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const name of names) {
    const m = readManifestSync(join(productDir, name));
    if (m?.coverage) periods[name] = { version: m.version, from: m.coverage.from, to: m.coverage.to };
  }
  return { format: 2, product, periods };
}

/** The index as the period manifests in the storage say it should be. */
export async function scanStoredPeriods(storage: TileStorage, product: string): Promise<PeriodIndex> {
  const periods: PeriodIndex['periods'] = {};
  const names = (await storage.children(`${product}/`)).dirs.filter((n) => PERIOD_NAME.test(n));
  for (const name of names) {
    const m = await readManifest(storage, `${product}/${name}`);
    if (m?.coverage) periods[name] = { version: m.version, from: m.coverage.from, to: m.coverage.to };
  }
  return { format: 2, product, periods };
}

function asIndex(text: string): PeriodIndex | null {
  try {
    const doc = JSON.parse(text) as PeriodIndex;
    return doc && doc.format === 2 && doc.periods && typeof doc.periods === 'object' ? doc : null;
  } catch {
    return null;
  }
}

/** The index file, or null when absent or unreadable (a scan then answers). */
export function readPeriodIndexSync(productDir: string): PeriodIndex | null {
  try {
    return asIndex(readFileSync(join(productDir, PERIOD_INDEX_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/** The index as the storage's synchronous view has it, or null when absent or unreadable. */
export function readPeriodIndexView(view: SyncView, product: string): PeriodIndex | null {
  const text = view.text(`${product}/${PERIOD_INDEX_FILE}`);
  return text === null ? null : asIndex(text);
}

/** The index in the storage, or null when absent or unreadable. */
export async function readPeriodIndex(storage: TileStorage, product: string): Promise<PeriodIndex | null> {
  const bytes = await storage.get(`${product}/${PERIOD_INDEX_FILE}`).catch(() => null);
  return bytes === null ? null : asIndex(Buffer.from(bytes).toString('utf8'));
}

const MAX_ROUNDS = 10;

/** Rebuild and write the index until it matches the periods on disk (see the module comment). */
export async function updatePeriodIndex(storage: TileStorage, product: string): Promise<PeriodIndex> {
  let want = await scanStoredPeriods(storage, product);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    await storage.put(`${product}/${PERIOD_INDEX_FILE}`, jsonDocument(want));
    const now = await scanStoredPeriods(storage, product);
    const written = await readPeriodIndex(storage, product);
    if (written && JSON.stringify(written.periods) === JSON.stringify(now.periods)) return now;
    want = now;
  }
  return want;
}
