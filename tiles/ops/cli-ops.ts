/**
 * `meteopunto tiles ls|verify|gc`: the operator's view of the stores on disk.
 *
 *   tiles ls [--json]
 *   tiles verify <product>[/<period>] [--version <v>]
 *   tiles gc [--dry-run]
 *
 * Long operations report progress on stderr: a bar on a terminal, a plain
 * line per tenth otherwise (logs, CI).
 */
import { gridSteps } from '../../geo/grid.js';
import { dataDir, productDir } from '../../config/paths.js';
import { inventory, humanBytes, storeOnDisk, type ProductOnDisk } from './inventory.js';
import { planGc, applyGc } from './gc-plan.js';
import { verifyStored, type Progress } from './verify.js';
import { bucketInventory, bucketStore } from './bucket-inventory.js';
import { planBucketGc } from './bucket-gc.js';
import { tileStorage } from '../storage/open.js';
import type { TileStorage } from '../storage/types.js';
import { STORE_KEY } from '../read/live-versions.js';
import { VERSION_NAME } from '../layout.js';
import { existsSync } from 'node:fs';

export class OpsUsageError extends Error {}

async function progressBar(label: string): Promise<{ update: Progress; stop: () => void }> {
  if (process.stderr.isTTY) {
    const { SingleBar, Presets } = (await import('cli-progress')).default;
    const bar = new SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total} {what}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
    let started = false;
    return {
      update: (done, total, what) => {
        if (!started) bar.start(total, 0, { what: '' });
        started = true;
        bar.update(done, { what });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastTenth = -1;
  return {
    update: (done, total) => {
      const tenth = Math.floor((10 * done) / Math.max(1, total));
      if (tenth !== lastTenth) process.stderr.write(`${label}: ${done}/${total}\n`);
      lastTenth = tenth;
    },
    stop: () => undefined,
  };
}

/** The tile storage of this process (METEOPUNTO_TILES, else `$METEOPUNTO_DATA/tiles`), and what is in it. */
async function stored(): Promise<{ storage: TileStorage; products: ProductOnDisk[] }> {
  const storage = tileStorage(dataDir());
  return { storage, products: storage.localPath ? inventory(dataDir()) : await bucketInventory(storage) };
}

export async function ls(json: boolean): Promise<number> {
  const { products } = await stored();
  if (json) {
    console.log(JSON.stringify(products.map(lsJson), null, 2));
    return 0;
  }
  if (products.length === 0) {
    console.log(`no tiles in ${dataDir()}`);
    return 0;
  }
  for (const p of products) {
    const total = p.stores.reduce((a, s) => a + s.versions.reduce((b, v) => b + v.bytes, 0) + s.temps.reduce((b, t) => b + t.bytes, 0), 0);
    const first = p.stores.find((s) => s.manifest)?.manifest;
    const g = first?.grid;
    console.log(`${p.product}${first?.source.sample ? '  (SAMPLE DATA)' : ''}  ${humanBytes(total)}${g ? `  grid ${g.kind === 'rotated_ll' ? 'rotated ' : ''}${g.nx} × ${g.ny}, ${gridSteps(g)}` : ''}${p.periods ? `  ${p.stores.length} periods` : ''}`);
    for (const s of p.stores) {
      const m = s.manifest;
      const head = p.periods ? `  ${s.key.split('/')[1]}` : ' ';
      const range = m ? (m.coverage ? `${m.coverage.from} to ${m.coverage.to} (${m.times.length} times)` : 'static') : s.error ?? 'no manifest';
      console.log(`${head} ${range}`);
      for (const v of s.versions) console.log(`    ${v.live ? 'live   ' : v.retired ? 'retired' : 'old    '} ${v.name}  ${humanBytes(v.bytes)}`);
      for (const t of s.temps) console.log(`    temp    ${t.name}  ${humanBytes(t.bytes)}`);
    }
  }
  return 0;
}

function lsJson(p: ProductOnDisk): unknown {
  return {
    product: p.product,
    periods: p.periods,
    stores: p.stores.map((s) => ({
      store: s.key,
      ...(p.periods ? { period: s.key.split('/')[1] } : {}),
      live: s.manifest?.version ?? null,
      ...(s.error ? { error: s.error } : {}),
      sample: s.manifest?.source.sample === true,
      coverage: s.manifest?.coverage ?? null,
      times: s.manifest?.times.length ?? 0,
      grid: s.manifest?.grid ?? null,
      bytes: s.versions.reduce((b, v) => b + v.bytes, 0) + s.temps.reduce((b, t) => b + t.bytes, 0),
      versions: s.versions,
      temps: s.temps,
    })),
  };
}

export async function verify(key: string, version: string | undefined): Promise<number> {
  if (!STORE_KEY.test(key)) throw new OpsUsageError(`invalid product '${key}' (a product, or <product>/<year> for a period)`);
  if (version !== undefined && !VERSION_NAME.test(version)) throw new OpsUsageError(`--version must be a version directory name such as 20261121T120000Z-1a2b3c.zarr, got '${version}'`);
  const root = dataDir();
  const storage = tileStorage(root);
  const local = storage.localPath !== undefined;
  if (local ? !existsSync(productDir(root, key)) : (await storage.list(`${key}/`)).length === 0) {
    console.error(`meteopunto tiles: no tiles for '${key}' in ${local ? root : storage.location}`);
    return 1;
  }
  const store = local ? storeOnDisk(root, key) : await bucketStore(storage, key);
  if (!store.manifest && store.versions.length === 0 && !version) {
    const periods = (await stored()).products.find((p) => p.product === key);
    if (periods?.periods) {
      // A period product: verify every period's live version.
      let code = 0;
      for (const s of periods.stores) code = Math.max(code, await verify(s.key, undefined));
      return code;
    }
  }
  const name = version ?? store.manifest?.version;
  if (!name) {
    console.error(`meteopunto tiles: no live version of '${key}'${store.error ? ` (${store.error})` : ''}`);
    return 1;
  }
  if (!store.versions.some((v) => v.name === name)) {
    console.error(`meteopunto tiles: '${key}' has no version ${name} on disk (it has: ${store.versions.map((v) => v.name).join(', ') || 'none'})`);
    return 1;
  }
  const bar = await progressBar(`verify ${key}`);
  const r = await verifyStored(storage, `${key}/${name}`, store.manifest?.version === name ? store.manifest : null, bar.update).finally(bar.stop);
  const what = `${key} ${name}: ${r.files} files, ${r.chunks} chunks`;
  if (r.failures.length > 0) {
    console.log(`FAILED ${what}: ${r.failures.length} problem(s)`);
    for (const f of r.failures.slice(0, 20)) console.log(`  ${f}`);
    if (r.failures.length > 20) console.log(`  ... and ${r.failures.length - 20} more`);
    return 1;
  }
  console.log(`ok ${what}${r.checksummed ? ', checksums match' : ' (published before checksums: decoding checked only)'}`);
  return 0;
}

export async function gc(dryRun: boolean): Promise<number> {
  const now = Date.now();
  let total = 0;
  let count = 0;
  const { storage, products } = await stored();
  if (!storage.localPath) return bucketGc(storage, products, now, dryRun);
  for (const p of products) {
    for (const s of p.stores) {
      const actions = await planGc(s, now);
      for (const a of actions) console.log(`${dryRun ? 'would remove' : 'removing'} ${s.key}/${a.name} (${humanBytes(a.bytes)}): ${a.why}`);
      count += actions.length;
      total += dryRun ? actions.reduce((b, a) => b + a.bytes, 0) : await applyGc(s, actions);
    }
  }
  console.log(count === 0 ? 'nothing to remove' : `${dryRun ? 'would free' : 'freed'} ${humanBytes(total)} in ${count} item(s)`);
  return 0;
}

/** `tiles gc` on a bucket: versions unusable for the grace period (./bucket-gc.ts). */
async function bucketGc(storage: TileStorage, products: ProductOnDisk[], now: number, dryRun: boolean): Promise<number> {
  let total = 0;
  let count = 0;
  for (const p of products) {
    for (const s of p.stores) {
      const actions = await planBucketGc(storage, s.key, now);
      for (const a of actions) {
        console.log(`${dryRun ? 'would remove' : 'removing'} ${s.key}/${a.name} (${humanBytes(a.bytes)}): ${a.why}`);
        if (!dryRun) await storage.deletePrefix(`${s.key}/${a.name}/`);
        total += a.bytes;
      }
      count += actions.length;
    }
  }
  console.log(count === 0 ? 'nothing to remove' : `${dryRun ? 'would free' : 'freed'} ${humanBytes(total)} in ${count} item(s)`);
  return 0;
}
