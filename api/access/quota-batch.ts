/**
 * Gathers the quota decisions of the requests a server answers together
 * into one Redis round trip. The server reads every request that is ready
 * before answering the first (../plugins/batching.ts), so the requests of
 * one such batch reach their quota decision in the same pass of the event
 * loop; each decision asked for joins the pending call, which leaves in the
 * next pass (setImmediate) as one script call (./quota-script.ts), and each
 * request is answered from its own verdict. Redis still decides every
 * request, in order and atomically: the batch changes how many requests
 * share a round trip, not what is decided.
 *
 * While a call is out, the decisions asked meanwhile wait for its answer
 * and then leave together (or after {@link HOLD_MS}, whichever comes first):
 * with requests arriving in every pass of the event loop, a call then
 * carries those of every pass during the previous round trip instead of one
 * call per pass. Alone, a request finds no call out and leaves in the next pass
 * as before.
 *
 * When a call's answer comes, every decision asked before it leaves at once,
 * before the answered requests are computed: also those whose pass has not
 * come yet. (The pass is the next check phase; the answer arrives in the poll
 * phase before it, and computing the answered batch there — about 13
 * weather.php answers — held them back by 0.5–0.8 ms:
 * docs/benchmarks-journal.md, "The quota script's input; the batch that waited
 * for the answers before it".)
 *
 * A call that fails (Redis down, a command timeout) fails each request of
 * it; each then takes the outage path of ./quota.ts on its own. The hang
 * breaker (./redis-connection.ts) counts one timeout per call; a hung Redis
 * holds the next call back by {@link HOLD_MS} at most.
 */
import type { Redis } from 'ioredis';
import { consumeMany, type BothWindows, type WindowsRequest } from './quota-script.js';

/**
 * Most decisions in one script call. Redis runs nothing else while a script
 * runs: a cap keeps each call short (up to seven commands per request), and
 * Lua's unpack of the arguments within its limits.
 */
export const MAX_BATCH = 256;

/** Longest a batch waits for the call before it (ms): a slow or hung Redis does not hold decisions back longer than this. */
export const HOLD_MS = 2;

/** What a batcher has sent: script calls, decisions in them, and the time from sending to the verdicts summed over the answered calls. */
export interface BatchStats {
  calls: number;
  decisions: number;
  answered: number;
  roundTripMs: number;
}

interface Pending {
  request: WindowsRequest;
  resolve(w: BothWindows): void;
  reject(err: unknown): void;
}

export class QuotaBatcher {
  private pending: Pending[] = [];
  private scheduled = false;
  /** Calls sent and not yet answered. */
  private out = 0;
  /** A batch is waiting for the call out (flushed when it returns, or by the hold timer). */
  private held: NodeJS.Timeout | null = null;
  /** For tests and the bench. */
  readonly sent: BatchStats = { calls: 0, decisions: 0, answered: 0, roundTripMs: 0 };

  constructor(
    private readonly redis: Redis,
    private readonly maxBatch = MAX_BATCH,
    private readonly holdMs = HOLD_MS,
  ) {}

  /** `request`'s decision, taken with those of every request that asks in the same pass of the event loop (or while the call before is out). */
  decide(request: WindowsRequest): Promise<BothWindows> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled && this.held === null) {
        this.scheduled = true;
        setImmediate(this.flushScheduled);
      }
    });
  }

  private readonly flushScheduled = () => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    if (this.out === 0) this.flush();
    else this.held ??= setTimeout(this.flushHeld, this.holdMs);
  };

  private readonly flushHeld = () => {
    this.held = null;
    if (this.pending.length > 0) this.flush();
  };

  private flush(): void {
    if (this.held !== null) {
      clearTimeout(this.held);
      this.held = null;
    }
    const batch = this.pending;
    this.pending = [];
    this.sent.calls++;
    this.sent.decisions += batch.length;
    this.out++;
    const t0 = performance.now();
    consumeMany(this.redis, batch.map((p) => p.request)).then(
      (verdicts) => {
        this.sent.answered++;
        this.sent.roundTripMs += performance.now() - t0;
        this.settled();
        batch.forEach((p, i) => p.resolve(verdicts[i]!));
      },
      (err: unknown) => {
        this.settled();
        batch.forEach((p) => p.reject(err));
      },
    );
  }

  /** A call is answered: what was asked meanwhile (held for it, or waiting for its pass) leaves now. */
  private settled(): void {
    this.out--;
    if (this.pending.length > 0) this.flush();
  }
}
