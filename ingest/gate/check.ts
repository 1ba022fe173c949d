/**
 * The contract of the ingest gate's checks (ingest/gate/gate.ts): what a
 * check sees of a run about to be published, and what it reports. A check
 * returns findings; any finding refuses the publish unless the operator
 * allowed that check by name for this ingest.
 */
import type { ProductVersionInput } from '../../tiles/types.js';
import type { CanonicalField } from '../mapping/map-fields.js';
import type { Product } from '../products/product.js';
import type { SourceSeries } from './source-series.js';

/** Names an operator passes to `--allow`; each is one file of this folder. */
export const CHECK_NAMES = ['time-axis', 'monotone-steps', 'finite-fraction', 'physical-range', 'collapse'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export function isCheckName(s: string): s is CheckName {
  return (CHECK_NAMES as readonly string[]).includes(s);
}

/** What the finite-fraction check counts of a series; counts of consecutive parts add up to the whole's. */
export interface FiniteTally {
  /** Cells judged per step (the largest seen). */
  cells: number;
  /** Cells counted over the steps with any finite value. */
  n: number;
  finite: number;
}

/** What the physical-range check counts: values outside, values looked at (NaN skipped), the first of the largest magnitude outside. */
export interface RangeTally {
  n: number;
  total: number;
  worst: number;
}

/** Both checks' counts per variable (./value-tallies.ts). */
export interface ValueTallies {
  finite: Map<string, FiniteTally>;
  range: Map<string, RangeTally>;
}

export interface GateContext {
  product: Product;
  /** What would be published, before the live version's earlier steps are carried over. */
  input: ProductVersionInput;
  /** The canonical fields the version was assembled from, each with its file. */
  fields: readonly CanonicalField[];
  /** Valid times of each source series in file order (./source-series.ts). */
  series: readonly SourceSeries[];
  /** Data directory: the live version the new one replaces is read from it. */
  root: string;
  nowMs: number;
  /**
   * The value checks' counts, taken part by part when the series is never
   * whole in memory (./value-tallies.ts); `input`'s values are then not read
   * by those checks. Absent: they count `input`.
   */
  tallies?: ValueTallies;
}

/** One reason to refuse, naming the variable and file when it concerns one. */
export interface Finding {
  check: CheckName;
  message: string;
}

export interface GateCheck {
  name: CheckName;
  run(ctx: GateContext): Finding[] | Promise<Finding[]>;
}
