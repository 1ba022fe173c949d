/**
 * How the weather service reads the tile store: a `Sampler` answers a lookup
 * or says a chunk must be loaded first (undefined). The service's sampling
 * code is written once against it and runs two ways: on the hot path
 * straight on cached chunks (`TileStore.trySampleIn`), and, when something
 * is missing, replayed with a `LoadingSampler` that loads the first lookup
 * that missed and answers the lookups it already got from memory, until a
 * round completes.
 */
import type { PointSample } from '../../tiles/types.js';
import type { PinnedVersion, TileStore } from '../../tiles/read/reader.js';

export type Sampler = (vs: PinnedVersion, lat: number, lon: number, timeMs: number | null, variables: readonly string[]) => PointSample | undefined;

interface Call {
  vs: PinnedVersion;
  lat: number;
  lon: number;
  timeMs: number | null;
  variables: readonly string[];
}

/** Rounds before giving up: a request makes a handful of lookups (now, the trend, a fallback), each loaded once. */
const MAX_ROUNDS = 64;

export class LoadingSampler {
  // Lookups answered so far (the samples are kept, so blocks evicted meanwhile do not matter).
  private readonly got: { call: Call; sample: PointSample }[] = [];
  private pending: Call | null = null;
  private rounds = 0;

  constructor(private readonly tiles: TileStore) {}

  readonly sample: Sampler = (vs, lat, lon, timeMs, variables) => {
    for (const g of this.got) if (same(g.call, vs, lat, lon, timeMs, variables)) return g.sample;
    const s = this.tiles.trySampleIn(vs, lat, lon, timeMs, variables);
    if (s !== undefined) this.got.push({ call: { vs, lat, lon, timeMs, variables }, sample: s });
    else this.pending ??= { vs, lat, lon, timeMs, variables };
    return s;
  };

  /** Loads the lookup of the last round that missed; its sample answers it from now on. */
  async load(): Promise<void> {
    const c = this.pending;
    if (!c) throw new Error('LoadingSampler.load: the last round missed nothing');
    if (++this.rounds > MAX_ROUNDS) throw new Error(`LoadingSampler: no complete round after ${MAX_ROUNDS} loads`);
    this.pending = null;
    this.got.push({ call: c, sample: await this.tiles.sampleIn(c.vs, c.lat, c.lon, c.timeMs, c.variables) });
  }
}

function same(c: Call, vs: PinnedVersion, lat: number, lon: number, timeMs: number | null, variables: readonly string[]): boolean {
  if (c.vs !== vs || c.lat !== lat || c.lon !== lon || c.timeMs !== timeMs) return false;
  if (c.variables === variables) return true;
  return c.variables.length === variables.length && c.variables.every((n, k) => n === variables[k]);
}
