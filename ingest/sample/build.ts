/**
 * The labelled sample dataset (`meteopunto demo`, `npm start` on a fresh
 * machine), built through the real path: each product's step
 * (./registry.ts) writes files shaped like the real product's, which are
 * then ingested with runIngest exactly as a real file would be (reader →
 * product → tile writer → atomic publish). Deterministic given the run time.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { runIngest } from '../pipeline.js';
import type { IngestReport } from '../ingest-report.js';
import { SAMPLE_MODEL, SAMPLE_NOTE } from './labels.js';
import { SAMPLE_STEPS } from './registry.js';
import type { SampleContext, SampleStep } from './step.js';

export { SAMPLE_MODEL, SAMPLE_NOTE };

/**
 * ~2.5 km: 0.025° of latitude (2.8 km) × 0.03° of longitude (2.5 km at 42°N),
 * lat 35.5..47.3, lon 6.5..18.59: inside the real terrain's box (./terrain.ts).
 */
export const SAMPLE_NWP_GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 404, ny: 473, x0: 6.5, y0: 35.5, dx: 0.03, dy: 0.025 };
/** ~1 km: 0.01° × 0.0125°, lat 35.5..47.3, lon 6.5..18.6. */
export const SAMPLE_DEM_GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 969, ny: 1181, x0: 6.5, y0: 35.5, dx: 0.0125, dy: 0.01 };

export interface SampleOptions {
  /** Data directory the tiles go to. */
  root: string;
  /** "Now" (default: the clock). The run starts 3–6 h before it, on a 3-hourly cycle. */
  now?: Date;
  /** Hours after now (rounded down to the hour) the forecast reaches (default SAMPLE_HOURS_AHEAD). */
  hoursAhead?: number;
  nwpGrid?: RegularLatLonGrid;
  demGrid?: RegularLatLonGrid;
  /** Keep the generated files in this directory (default: a temp dir, removed afterwards). */
  keepDir?: string;
  /** Only these products (default every step of ./registry.ts). */
  products?: readonly string[];
  /** Each stage: its message, and which step of how many (a progress bar's figures). */
  onProgress?: (message: string, at: SampleStepAt) => void;
  signal?: AbortSignal;
}

/** Where a build stands: step `step` (1-based) of `steps`, its product, generating or ingesting. */
export interface SampleStepAt {
  step: number;
  steps: number;
  product: string;
  stage: 'generate' | 'ingest';
}

export interface SampleResult {
  run: Date;
  /** Per product, its ingest report. */
  reports: Record<string, IngestReport>;
  /** Per product, the generated files (removed unless keepDir was given). */
  files: Record<string, string[]>;
  /** Per product, milliseconds spent generating and ingesting. */
  timingsMs: Record<string, { generate: number; ingest: number }>;
}

/** How long a sample lasts: its forecast reaches this many hours after it was made. */
export const SAMPLE_HOURS_AHEAD = 48;

/** The run time of a sample made at `now`: the last 3-hourly cycle at least 3 h old. */
export function sampleRunTime(now: Date): Date {
  const hour = 3_600_000;
  const nowH = Math.floor(now.getTime() / hour) * hour;
  return new Date(Math.floor((nowH - 3 * hour) / (3 * hour)) * 3 * hour);
}

export async function buildSampleDataset(opts: SampleOptions, steps: readonly SampleStep[] = SAMPLE_STEPS): Promise<SampleResult> {
  const now = opts.now ?? new Date();
  const run = sampleRunTime(now);
  const hour = 3_600_000;
  const end = Math.floor(now.getTime() / hour) * hour + (opts.hoursAhead ?? SAMPLE_HOURS_AHEAD) * hour;
  const times: Date[] = [];
  for (let t = run.getTime(); t <= end; t += hour) times.push(new Date(t));
  const dir = opts.keepDir ?? (await mkdtemp(join(tmpdir(), 'meteopunto-sample-')));
  if (opts.keepDir) await mkdir(opts.keepDir, { recursive: true });
  const onProgress = opts.onProgress ?? (() => undefined);
  const chosen = steps.filter((step) => !opts.products || opts.products.includes(step.product));
  let at: SampleStepAt = { step: 0, steps: chosen.length, product: '', stage: 'generate' };
  const say = (message: string) => onProgress(message, at);
  const ctx: SampleContext = {
    root: opts.root, dir, run, times,
    nwpGrid: opts.nwpGrid ?? SAMPLE_NWP_GRID,
    demGrid: opts.demGrid ?? SAMPLE_DEM_GRID,
    source: { model: SAMPLE_MODEL, run: run.toISOString(), sample: true, note: SAMPLE_NOTE },
    ...(opts.signal ? { signal: opts.signal } : {}),
    say,
  };
  const result: SampleResult = { run, reports: {}, files: {}, timingsMs: {} };
  try {
    for (const [k, step] of chosen.entries()) {
      at = { step: k + 1, steps: chosen.length, product: step.product, stage: 'generate' };
      let t0 = performance.now();
      say(`generating ${step.describe(ctx)}`);
      const files = await step.generate(ctx);
      const generate = performance.now() - t0;
      t0 = performance.now();
      at = { ...at, stage: 'ingest' };
      say(`ingesting sample ${step.product} (product ${step.product})`);
      result.reports[step.product] = step.ingest
        ? await step.ingest(ctx, files)
        : await runIngest({ root: opts.root, product: step.product, files, source: ctx.source, ...(opts.signal ? { signal: opts.signal } : {}) });
      result.files[step.product] = files;
      result.timingsMs[step.product] = { generate, ingest: performance.now() - t0 };
    }
    return result;
  } finally {
    if (!opts.keepDir) await rm(dir, { recursive: true, force: true });
  }
}
