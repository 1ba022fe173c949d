/**
 * Which lookups of the tile store a request makes: for the builders a
 * request selects (a `Selection`) and the versions its feeds were routed to,
 * one lookup per pinned version, with the reads of every feed it answers
 * merged into one variable list (plus the trend's list three hours back).
 * Plans are kept per selection and reused while requests route alike, which
 * is nearly always; the merged lists are kept per version, so that a plan
 * built again passes the reader the same arrays (it caches its resolved lists
 * by identity).
 */
import type { PinnedVersion } from '../../tiles/read/reader.js';
import type { FeedRead, FieldBuilder } from '../fields/contract.js';

/** The builders of one plan/groups combination and the feeds they read. */
export interface Selection {
  builders: readonly FieldBuilder[];
  /** Small number naming the selection in numeric cache keys. */
  id: number;
  feeds: readonly string[];
  /** Per feed, by its index in `feeds`: the reads of it, in builder order (no keyed lookup per request). */
  readsAt: readonly (readonly FeedRead[])[];
  /** Per feed (by index): the bit set of its reads without a `when`, read whatever the request (the others by their `when`). */
  alwaysMask: readonly number[];
  /** Recent lookup plans (LookupPlanner.plan). */
  plans: LookupPlan[];
}

/** One lookup of a pinned version. */
export interface Lookup {
  vs: PinnedVersion;
  /** Bit k: the selection's feed k reads this version. */
  feedMask: number;
  reads: FeedRead[];
  static: boolean;
  variables: readonly string[];
  history: { offsetMs: number; variables: readonly string[] } | null;
}

/** The lookups of one selection for one set of answering versions (immutable: shared by the requests that route alike). */
export interface LookupPlan {
  pins: (PinnedVersion | null)[];
  readMasks: number[];
  lookups: Lookup[];
  /** Per feed of the selection (by index): the index of its lookup in `lookups`, −1 when no product answers it here. */
  lookupAt: number[];
}

const NONE: readonly string[] = [];
/** Lookup plans kept per selection: the live versions of a few regions and instants. */
const PLANS_KEPT = 8;

export class LookupPlanner {
  // Filled by the caller before plan(): per feed of the selection, the pinned version and the bit set of active reads.
  readonly pins: (PinnedVersion | null)[] = [];
  readonly readMasks: number[] = [];
  /** Per version: merged variable lists by selection, feed set and instant (stable arrays: the reader caches them by identity). */
  private readonly merged = new WeakMap<PinnedVersion, Map<number, readonly string[]>>();

  /**
   * The lookups for the versions just pinned (`pins`) and the reads just
   * chosen (`readMasks`): reused while they stay the same, which is
   * nearly always (a plan changes when a version is published or a request
   * routes elsewhere).
   */
  plan(selection: Selection): LookupPlan {
    const n = selection.feeds.length;
    const plans = selection.plans;
    search: for (let k = 0; k < plans.length; k++) {
      const p = plans[k]!;
      for (let f = 0; f < n; f++) if (p.pins[f] !== this.pins[f] || p.readMasks[f] !== this.readMasks[f]) continue search;
      return p;
    }
    // A version's lookup by its index in `lookups`; each feed points at its version's.
    const atVersion = new Map<PinnedVersion, number>();
    const lookups: Lookup[] = [];
    const lookupAt = new Array<number>(n).fill(-1);
    for (let f = 0; f < n; f++) {
      const vs = this.pins[f];
      if (!vs) continue;
      const reads = selection.readsAt[f]!.filter((_, k) => (this.readMasks[f]! & (1 << k)) !== 0);
      let at = atVersion.get(vs);
      if (at === undefined) {
        at = lookups.push({ vs, feedMask: 0, reads: [], static: true, variables: NONE, history: null }) - 1;
        atVersion.set(vs, at);
      }
      const l = lookups[at]!;
      l.feedMask |= 1 << f;
      l.reads.push(...reads);
      lookupAt[f] = at;
    }
    for (const l of lookups) {
      l.static = l.reads.every((r) => r.static);
      const key = (selection.id * 1024 + l.feedMask) * 2;
      l.variables = this.mergedList(l.vs, key, () => l.reads.flatMap((r) => r.variables(l.vs.manifest)));
      const h = l.reads.find((r) => r.history)?.history;
      if (h) l.history = { offsetMs: h.offsetMs, variables: this.mergedList(l.vs, key + 1, () => l.reads.flatMap((r) => r.history?.variables ?? [])) };
    }
    const plan: LookupPlan = { pins: this.pins.slice(0, n), readMasks: this.readMasks.slice(0, n), lookups, lookupAt };
    if (plans.length >= PLANS_KEPT) plans.shift();
    plans.push(plan);
    return plan;
  }

  /** A merged, deduplicated variable list, cached with its version under `key`. */
  private mergedList(vs: PinnedVersion, key: number, make: () => readonly string[]): readonly string[] {
    let byKey = this.merged.get(vs);
    if (!byKey) this.merged.set(vs, (byKey = new Map()));
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = [...new Set(make())]));
    return list;
  }
}
