/**
 * The products published under `tiles/`, as the router sees them: per
 * response field group ("feed"), the products whose manifests say they feed
 * it, highest priority first. Everything comes from the manifests (and a
 * period product's index.json); no product is known by name here.
 *
 * The listing is refreshed lazily, at most every `refreshMs`: a new product
 * directory, a period or a changed catalogue entry is seen within that time,
 * while the request path costs a map lookup.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { productDir, tilesDir } from '../../config/paths.js';
import type { TimeLayout } from '../../tiles/manifest.js';
import { MANIFEST_FILE, PERIOD_INDEX_FILE } from '../../tiles/layout.js';
import { readPeriodIndexSync, scanPeriods } from '../../tiles/period-index.js';
import type { TileStore } from '../../tiles/read/reader.js';

export interface Candidate {
  product: string;
  layout: TimeLayout;
  priority: number;
  feeds: readonly string[];
}

const PRODUCT_NAME = /^[a-z0-9][a-z0-9_-]*$/;

export class PublishedProducts {
  private checkedAt = -Infinity;
  private byFeed = new Map<string, Candidate[]>();
  private all: Candidate[] = [];
  private periodsOf = new Map<string, string[]>();

  constructor(
    private readonly tiles: TileStore,
    private readonly root: string,
    private readonly refreshMs = 2000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Products feeding `feed`, highest priority first (ties: by name). `nowMs`: the caller's clock reading, if it has one. */
  candidates(feed: string, nowMs = this.clock()): readonly Candidate[] {
    this.refresh(nowMs);
    return this.byFeed.get(feed) ?? [];
  }

  /** Every published product. */
  products(): readonly Candidate[] {
    this.refresh();
    return this.all;
  }

  /** The published periods of a period product, ascending. */
  periods(product: string): readonly string[] {
    this.refresh();
    return this.periodsOf.get(product) ?? [];
  }

  /** Store key of a product's live store at `timeMs`: the product, or `<product>/<UTC year>` for period products. */
  storeKey(c: Candidate, timeMs: number): string {
    return c.layout === 'periods' ? `${c.product}/${new Date(timeMs).getUTCFullYear()}` : c.product;
  }

  private refresh(now = this.clock()): void {
    if (now - this.checkedAt < this.refreshMs) return;
    this.checkedAt = now;
    let names: string[] = [];
    try {
      names = readdirSync(tilesDir(this.root)).filter((n) => PRODUCT_NAME.test(n)).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const all: Candidate[] = [];
    const periodsOf = new Map<string, string[]>();
    for (const name of names) {
      const dir = productDir(this.root, name);
      if (existsSync(join(dir, MANIFEST_FILE))) {
        const m = this.tiles.manifest(name);
        if (m) all.push({ product: name, layout: m.layout, priority: m.priority, feeds: m.feeds });
        continue;
      }
      const index = existsSync(join(dir, PERIOD_INDEX_FILE)) ? readPeriodIndexSync(dir) : null;
      const periods = Object.keys((index ?? scanPeriods(dir, name)).periods).sort();
      const newest = periods[periods.length - 1];
      const m = newest ? this.tiles.manifest(`${name}/${newest}`) : null;
      if (!m) continue;
      periodsOf.set(name, periods);
      all.push({ product: name, layout: 'periods', priority: m.priority, feeds: m.feeds });
    }
    const byFeed = new Map<string, Candidate[]>();
    for (const c of all) {
      for (const f of c.feeds) {
        let list = byFeed.get(f);
        if (!list) byFeed.set(f, (list = []));
        list.push(c);
      }
    }
    for (const list of byFeed.values()) list.sort((a, b) => b.priority - a.priority || a.product.localeCompare(b.product));
    this.all = all;
    this.byFeed = byFeed;
    this.periodsOf = periodsOf;
  }
}
