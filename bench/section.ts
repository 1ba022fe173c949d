/**
 * What a section of `npm run bench` is given and gives back. bench/run.ts
 * builds the data and the keys once, then runs the sections listed in
 * ./sections.ts in order with one context; a section prints its own figures
 * and adds its targets to `checks`, which are printed together at the end
 * (./targets.ts), each beside its figure, PASS or FAIL.
 */
import type { Plan } from '../api/access/contract.js';
import type { HttpBenchResult } from './http.js';
import type { Check } from './targets.js';

export interface BenchContext {
  /** Data dir holding the nwp and dem stores of ./data.ts. */
  readonly root: string;
  /** First valid time of the nwp store, ms. */
  readonly firstValidMs: number;
  /** BENCH_SECONDS: measured seconds per HTTP server. */
  readonly seconds: number;
  /** BENCH_CONNECTIONS: keep-alive connections of the load generator. */
  readonly connections: number;
  /** Keys and quotas in Redis (BENCH_REDIS_URL), as replicas run; else embedded keys, in-memory quotas. */
  readonly redis: boolean;
  /** One API key per plan measured (BENCH_PLANS), in the order given; the first is the default. */
  readonly keys: ReadonlyArray<{ plan: Plan; apiKey: string }>;
  /** The HTTP section's figures, for the sections after it (the bare route is every ratio's denominator). */
  http?: HttpBenchResult;
  /** The `tile point lookup` section's warm median, µs: the point read no answer can skip, read by the floors' verdicts (./targets.ts). */
  pointReadUs?: number;
  /** Targets met or missed, printed at the end. */
  readonly checks: Check[];
}

export interface BenchSection {
  /** Short name, as BENCH_SECTIONS selects it. */
  readonly name: string;
  /** Sections whose results this one reads (run first even when not selected). */
  readonly needs?: readonly string[];
  /** It builds its own data and reads nothing of the context but `checks`: run alone, the nwp store and keys are not built. */
  readonly ownData?: boolean;
  readonly run: (ctx: BenchContext) => Promise<void>;
}

/** The point read of the run, as the floors' verdicts take it ({} when `point-lookup` did not run). */
export function pointRead(ctx: BenchContext): { pointReadUs?: number } {
  return ctx.pointReadUs !== undefined ? { pointReadUs: ctx.pointReadUs } : {};
}
