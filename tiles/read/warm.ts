/**
 * Warming a version before it answers: the blocks users ask for first are
 * decoded into the chunk cache, so the first requests after a start or a
 * publish find them there instead of each waiting for a decode.
 *
 * What: every spatial chunk of the block kinds holding the variables the
 * caller's plan names for the store (the API names what a request without
 * `fields=` reads: api/weather/warm-plan.ts), in the time chunk holding now
 * (a forecast's chunks hold its whole time axis). Period stores (reanalysis
 * years) are not warmed: the plan returns null for them.
 *
 * How: in decode threads (./decode-pool.ts), so the event loop goes on
 * answering meanwhile: one block at a time beside a live version, on every
 * thread at a start (a load balancer sends nothing to a node not ready). A block that
 * would push the cache over its budget is not decoded (the warm stops there
 * and says so): warming must never evict what the live version is using.
 * From a bucket, the chunks of the next blocks are fetched while one decodes,
 * at most the storage's `warmGets` GETs at once: a GET is tens of ms of
 * waiting for little CPU, so one block at a time would spend most of a switch
 * waiting; the decodes, the CPU, stay one at a time.
 *
 * When: `VersionWarmer.adopt` is what ./live-versions.ts calls with a new
 * version. With a live version already answering, the new one is staged
 * (`pending`) and becomes live once warm; then the old version's blocks leave
 * the cache. Without one (a start, a first publish), it answers at once and
 * warms behind; `warmLive` lets a starting server wait for that.
 */
import type { Manifest } from '../manifest.js';
import type { ChunkCache, ChunkData, BlockRequest } from './chunk-cache.js';
import { setLive, type StoreEntry } from './live-versions.js';
import { fetchStages, type Limit } from './block-read.js';
import { blockRequest } from './neighbour-blocks.js';
import { idSpan, type VersionState } from './version-state.js';
import { aligned, WarmMemory } from './warm-memory.js';

/** The variables to warm in a store's version; null: do not warm it. */
export type WarmPlan = (m: Manifest) => readonly string[] | null;

/** One finished warm (for the server's log and the tests). */
export interface WarmReport {
  key: string;
  version: string;
  /** Blocks decoded (already cached ones not counted), of `total`. */
  blocks: number;
  total: number;
  bytes: number;
  ms: number;
  /** Why it stopped early, if it did (the cache full, the version removed). */
  stopped?: string;
  /** Whether the version became live on it (false at a start: it was live already). */
  switched: boolean;
  /** Its files were removed under the warm: it is not switched to. */
  gone?: boolean;
}

/** Decoded size of a block, bytes. */
function blockBytes(req: BlockRequest): number {
  return req.steps * req.plane * req.files.length * (req.int16 ? 2 : 4);
}

/**
 * The load requests of every tile's block of `vs` holding one of `names`: for a time-varying kind, the block of the
 * time chunk holding `nowMs` (the nearest at either end; a forecast has one time chunk).
 */
export function warmRequests(vs: VersionState, names: readonly string[], nowMs: number): BlockRequest[] {
  const kinds = new Set<number>();
  for (const n of names) {
    const v = vs.vars.get(n);
    if (v) kinds.add(v.kind);
  }
  let k = 0;
  while (k + 1 < vs.nTimes && vs.timesMs[k + 1]! <= nowMs) k++;
  // Even windows are whole time chunks (odd ones bridge two: ./version-state.ts).
  const nowWindow = 2 * Math.min(Math.floor(k / vs.ct), (vs.nWin - 1) / 2);
  const out: BlockRequest[] = [];
  for (const kind of [...kinds].sort((a, b) => a - b)) {
    const wk = kind * vs.nWin + (vs.kinds[kind]!.isStatic ? 0 : nowWindow);
    for (let c = 0; c < vs.nChunks; c++) out.push(blockRequest(vs, wk, c, vs.idBase + wk * vs.nChunks + c));
  }
  return out;
}

export class VersionWarmer {
  /** Each version's warm, started once. */
  private readonly warms = new WeakMap<VersionState, Promise<WarmReport | null>>();
  private readonly cancelled = new WeakSet<VersionState>();

  constructor(
    private readonly cache: ChunkCache,
    private readonly plan: WarmPlan,
    private readonly decode: (req: BlockRequest) => Promise<ChunkData>,
    private readonly onReport: (r: WarmReport) => void = () => undefined,
    /** Blocks decoded at once by a start's warm (the decode threads). */
    private readonly startConcurrency = 1,
    /** Where the blocks are written (./warm-memory.ts); none: each in a buffer of its own. */
    private readonly memory?: WarmMemory,
  ) {}

  /** Called with each new version a store's entry finds: stage it (a live one answers meanwhile) or make it live and warm behind. */
  adopt(key: string, e: StoreEntry, vs: VersionState): void {
    const names = this.plan(vs.manifest);
    const pending = e.pending ?? null;
    if (pending) this.abandon(pending);
    e.pending = null;
    if (!names || !e.state) {
      setLive(e, vs);
      if (names) void this.warm(key, vs, names, false);
      return;
    }
    e.pending = vs;
    void this.warm(key, vs, names, true).then((r) => {
      if (e.pending !== vs) return;
      if (r?.gone) {
        // Removed under the warm: never switch to it; read current.json again at the next lookup.
        this.abandon(vs);
        e.pending = null;
        e.stamp = '-';
        e.checkedAt = -Infinity;
        this.onReport(r);
        return;
      }
      const old = e.state;
      setLive(e, vs);
      e.pending = null;
      // The old version's blocks (its front table went with the switch): requests pinned to it keep their own references.
      if (old) this.retire(old);
      if (r) this.onReport(r);
    });
  }

  /** Warm the live versions of `keys` (a starting server); resolves when all are warm. */
  async warmLive(entries: Array<[string, StoreEntry]>): Promise<WarmReport[]> {
    const out: WarmReport[] = [];
    for (const [key, e] of entries) {
      const vs = e.state;
      if (!vs) continue;
      const names = this.plan(vs.manifest);
      if (!names) continue;
      const r = await this.warm(key, vs, names, false);
      if (r) out.push(r);
    }
    // The first publish's memory, faulted in before the server is ready rather than while it answers.
    await this.memory?.reserve();
    return out;
  }

  private abandon(vs: VersionState): void {
    this.cancelled.add(vs);
    this.retire(vs);
  }

  /**
   * A version no longer read (replaced, or abandoned while staged): its blocks leave the cache, which the warm
   * filled for it; its front table is emptied by the switch itself (./live-versions.ts `setLive`). A request
   * still reading it meets the cache's miss path, as for an evicted block.
   */
  private retire(vs: VersionState): void {
    this.cache.deleteRange(vs.idBase, idSpan(vs));
  }

  /** The warm of `vs` (started on the first call); null when abandoned for a newer version. */
  private warm(key: string, vs: VersionState, names: readonly string[], switching: boolean): Promise<WarmReport | null> {
    let done = this.warms.get(vs);
    if (!done) {
      // A switch decodes one block at a time beside the traffic; a start (nothing answering yet) uses every thread;
      // a bucket's next blocks are fetched meanwhile either way (fetchAhead).
      done = this.decodeAll(key, vs, names, switching, switching ? 1 : this.startConcurrency);
      this.warms.set(vs, done);
    }
    return done;
  }

  private async decodeAll(key: string, vs: VersionState, names: readonly string[], switching: boolean, concurrency: number): Promise<WarmReport | null> {
    const t0 = performance.now();
    const reqs = warmRequests(vs, names, Date.now());
    const fetchAhead = this.fetchAhead(reqs, Math.max(1, concurrency));
    let need = 0;
    for (const r of reqs) if (!this.cache.has(r.id)) need += aligned(blockBytes(r));
    const slab = need > 0 ? this.memory?.slab(need) : undefined;
    let blocks = 0;
    let bytes = 0;
    let stopped: string | undefined;
    let gone = false;
    let next = 0;
    const lane = async () => {
      while (next < reqs.length && stopped === undefined && !this.cancelled.has(vs)) {
        const i = next++;
        const req = reqs[i]!;
        const decode = fetchAhead(i);
        if (this.cache.has(req.id)) continue;
        const size = blockBytes(req);
        if (this.cache.bytes + size > this.cache.maxBytes) {
          stopped = `the tile cache is full (${Math.round(this.cache.bytes / 2 ** 20)} of ${Math.round(this.cache.maxBytes / 2 ** 20)} MiB)`;
          return;
        }
        const region = slab?.take(size);
        try {
          // Into a region, the slab holding the block's view: it is reused only once none of its views is reachable.
          const write = region ? async (r: BlockRequest) => { const view = await decode(r); slab!.hold(view); return view; } : decode;
          await this.cache.warm(region ? { ...req, into: region } : req, write);
        } catch (err) {
          // Removed files (a version replaced twice in a row) or a damaged chunk: stop warming; a request reading it
          // meets the same error and reports it, so a version is never held back for good.
          gone = (err as NodeJS.ErrnoException).code === 'ENOENT';
          stopped ??= gone ? `its files were removed (${(err as Error).message})` : `a block could not be read (${(err as Error).message})`;
          return;
        }
        blocks++;
        bytes += size;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
    slab?.seal();
    if (this.cancelled.has(vs)) return null;
    const report: WarmReport = { key, version: vs.version, blocks, total: reqs.length, bytes, ms: performance.now() - t0, switched: switching && !gone, ...(stopped ? { stopped } : {}), ...(gone ? { gone } : {}) };
    if (!switching) this.onReport(report);
    return report;
  }

  /**
   * For a warm of `reqs` decoding `lanes` blocks at once: the decode of block i, called as the warm reaches it.
   * With a fetching decoder (a bucket) whose `gets` is not 0, that call also starts fetching the blocks up to
   * `gets` × `lanes` past i (what is cached already is skipped), their GETs at most as many at once, in block
   * order (a start's lanes, with nothing answering yet, each get their share); block i's decode uses its bytes
   * fetched so. A fetch that fails is met when its block's decode comes, in order, as without fetching ahead.
   * Fetches started for blocks a stopped warm never reaches are left to end unused.
   */
  private fetchAhead(reqs: readonly BlockRequest[], lanes: number): (i: number) => (req: BlockRequest) => Promise<ChunkData> {
    const stages = fetchStages(this.decode);
    if (!stages || stages.gets <= 0) return () => this.decode;
    // Each block has one GET at least: as many blocks ahead as GETs are enough to keep them in flight.
    const gets = stages.gets * lanes;
    const limit = limiter(gets);
    const fetched = new Map<number, Promise<BlockRequest>>();
    let end = 0;
    return (i) => {
      for (const to = Math.min(reqs.length, i + 1 + gets); end < to; end++) {
        if (this.cache.has(reqs[end]!.id)) continue;
        const p = stages.fetch(reqs[end]!, limit);
        p.catch(() => undefined); // its error is met by its decode
        fetched.set(end, p);
      }
      const p = fetched.get(i);
      fetched.delete(i);
      // The fetched request, written where the warm's own says (its region).
      return p ? async (r) => stages.decodeFetched(r.into ? { ...(await p), into: r.into } : await p) : this.decode;
    };
  }
}

/**
 * At most `n` tasks running at once, the others started in the order given as running ones end: a warm's GETs
 * are bounded so, both for the bucket and for the event loop, which handles each answer (a burst of them delays
 * the requests it serves meanwhile).
 */
function limiter(n: number): Limit {
  let running = 0;
  const waiting: Array<() => void> = [];
  const done = () => {
    running--;
    waiting.shift()?.();
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((ok, fail) => {
      const run = () => {
        running++;
        task().then(ok, fail).finally(done);
      };
      if (running < n) run();
      else waiting.push(run);
    });
}
