/**
 * The seam between two sources of the reanalysis (docs/history.md: 20CRv3
 * to 1939, ERA5 from 1940). A source's first year can bring steps of the
 * year before: an hourly amount's start (31 December 23 UTC, on the time
 * axis as the start of the first interval) and 1 January 00 UTC, which
 * closes the year before (./years.ts splitByYear). A year keeps the one
 * source and grid it was published with: a part of a year holding only such
 * steps is dropped when the year holds another source, and a year published
 * from such a part alone gives way to the files of its own source, each
 * with one warning line naming the steps. Everything else with another
 * source or grid is still refused (./years.ts).
 */
import { sameGrid } from '../../../geo/grid.js';
import { openLiveVersion } from '../../../tiles/read/field-reader.js';
import type { ProductVersionInput } from '../../../tiles/types.js';

/** Smallest spacing of ascending times (0 for fewer than two). */
function minStep(ms: readonly number[]): number {
  let step = Infinity;
  for (let k = 1; k < ms.length; k++) step = Math.min(step, ms[k]! - ms[k - 1]!);
  return Number.isFinite(step) ? step : 0;
}

/**
 * Whether `ms` (times of `year`) all lie within one step of the year's end
 * (or its start): what a series of the next (the previous) year brings
 * across the boundary. `step`: the series' spacing.
 */
function atBoundary(year: number, ms: readonly number[], step: number): 'end' | 'start' | null {
  if (ms.length === 0) return null;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  if (ms.every((t) => t >= end - step && t <= end)) return 'end';
  if (ms.every((t) => t >= start && t <= start + step)) return 'start';
  return null;
}

/** A part of `year` holding only steps a series of another year (`inputMs`, all its times) brings across the boundary. */
export function isSeamPart(year: number, partMs: readonly number[], inputMs: readonly number[]): boolean {
  const side = atBoundary(year, partMs, minStep(inputMs));
  if (side === 'end') return inputMs.some((t) => t > Date.UTC(year + 1, 0, 1));
  if (side === 'start') return inputMs.some((t) => t < Date.UTC(year, 0, 1));
  return false;
}

/** A published year that holds nothing but such steps (another source's ingest of the year next to it published it). */
export function isSeamOnly(year: number, publishedMs: readonly number[]): boolean {
  return atBoundary(year, publishedMs, minStep(publishedMs)) !== null;
}

const iso = (ms: readonly number[]) => ms.map((t) => new Date(t).toISOString()).join(', ');

/** The warning for a year published from its seam steps alone and now replaced by its own source's files. */
export function seamReplacedNote(key: string, heldModel: string, publishedMs: readonly number[], model: string): string {
  return `warning: ${key} held only ${publishedMs.length} step(s) of ${heldModel || 'an unnamed source'} across the year boundary (${iso(publishedMs)}), dropped: the year is ${model || 'an unnamed source'}'s`;
}

/**
 * The warning when `part` (of `year`, model `model`) is only seam steps and
 * the year is published with another source or grid (the part is then not
 * published); null when the part is to be merged or published as usual.
 */
export async function seamDrop(root: string, productName: string, year: number, part: ProductVersionInput, model: string, inputMs: readonly number[]): Promise<string | null> {
  const partMs = part.times.map((t) => t.getTime());
  if (!isSeamPart(year, partMs, inputMs)) return null;
  const key = `${productName}/${year}`;
  const prev = await openLiveVersion(root, key);
  if (!prev) return null;
  const held = prev.manifest.source.model ?? '';
  if (held === model && sameGrid(prev.manifest.grid, part.grid)) return null;
  return `warning: ${key} holds ${held || 'an unnamed source'}: ${partMs.length} step(s) of ${model || 'an unnamed source'} across the year boundary (${iso(partMs)}) not published there`;
}
