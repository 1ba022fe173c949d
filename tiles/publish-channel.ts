/**
 * Announcing publishes to the API replicas over Redis pub/sub, so each picks
 * a new version up at once instead of at the next check of `current.json`
 * its traffic makes (which stays the fallback: tiles/read/live-versions.ts).
 *
 * After a run publishes, the publisher (`meteopunto ingest`, the workers)
 * sends the store keys it changed on {@link TILES_PUBLISHED} as a JSON array
 * (`["nwp","sm100"]`, a period store as `reanalysis/1950`). A server started
 * with REDIS_URL subscribes and re-reads those stores' manifests at once,
 * which stages and warms the new version (tiles/read/warm.ts). A lost
 * message costs only the delay: the version is found by the next check.
 */
import { Redis } from 'ioredis';

export const TILES_PUBLISHED = 'mp:tiles:published';

/** The store keys an ingest run published: its product, the products derived from it, its periods. */
export function publishedStores(r: { product: string; derived?: ReadonlyArray<{ product: string }>; periods?: ReadonlyArray<{ period: string }> }): string[] {
  if (r.periods && r.periods.length > 0) return r.periods.map((p) => `${r.product}/${p.period}`);
  return [r.product, ...(r.derived ?? []).map((d) => d.product)];
}

/** Publish the announcement on one short-lived connection; rejects when Redis cannot be reached within a few seconds. */
export async function announcePublished(redisUrl: string, stores: readonly string[]): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectionName: 'meteopunto-publisher' });
  redis.on('error', () => undefined); // reported by the rejected command
  try {
    await redis.connect();
    await redis.publish(TILES_PUBLISHED, JSON.stringify(stores));
  } finally {
    redis.disconnect();
  }
}

/** The store keys of one message; malformed ones are ignored (they name no store a reader holds). */
function parseStores(message: string): string[] {
  try {
    const v = JSON.parse(message) as unknown;
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export interface PublishFollower {
  /** Resolves once subscribed (never, while Redis cannot be reached: the check of current.json goes on meanwhile). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Subscribe to announcements: `onStores` gets each message's store keys. ioredis reconnects and re-subscribes
 * by itself; `onError` hears connection errors.
 */
export function followPublished(redisUrl: string, onStores: (stores: string[]) => void, onError: (err: Error) => void = () => undefined): PublishFollower {
  const sub = new Redis(redisUrl, { connectionName: 'meteopunto-tiles-published', maxRetriesPerRequest: null });
  sub.on('error', onError);
  sub.on('message', (_channel: string, message: string) => onStores(parseStores(message)));
  const ready = sub.subscribe(TILES_PUBLISHED).then(() => undefined);
  ready.catch(() => undefined);
  return {
    ready,
    async close() {
      try {
        await sub.quit();
      } catch {
        sub.disconnect();
      }
    },
  };
}
