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
import type { TimeLayout } from '../../tiles/manifest.js';
import { readPeriodIndexView, scanPeriods } from '../../tiles/period-index.js';
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
    // Through the tile storage's synchronous view: a directory is read now, a bucket answers from its last poll.
    const storage = this.tiles.storage;
    const view = storage.sync;
    const names = view.dirs('').filter((n) => PRODUCT_NAME.test(n));
    const all: Candidate[] = [];
    const periodsOf = new Map<string, string[]>();
    for (const name of names) {
      const m = this.tiles.manifest(name);
      if (m) {
        all.push({ product: name, layout: m.layout, priority: m.priority, feeds: m.feeds });
        continue;
      }
      const index = readPeriodIndexView(view, name);
      // Without an index (an older store) a directory is scanned; a bucket's index is written with every period.
      const scanned = !index && storage.localPath ? scanPeriods(storage.localPath(name), name) : null;
      const periods = Object.keys((index ?? scanned)?.periods ?? {}).sort();
      const newest = periods[periods.length - 1];
      const pm = newest ? this.tiles.manifest(`${name}/${newest}`) : null;
      if (!pm) continue;
      periodsOf.set(name, periods);
      all.push({ product: name, layout: 'periods', priority: pm.priority, feeds: pm.feeds });
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
