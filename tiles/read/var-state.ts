/**
 * What the point reader keeps per variable of a published version: where
 * its chunks are, how they are packed and coded, its cache block and its
 * read rules. Built with the version (./version-state.ts), read by every
 * lookup.
 */

/** Neighbour mask codes: 0 any, 1 sea, 2 land. */
export const MASK_ANY = 0;
export const MASK_SEA = 1;
export const MASK_LAND = 2;

export interface VarState {
  name: string;
  index: number;
  isStatic: boolean;
  int16: boolean;
  /** Unpacking: value = raw × scale + offset (1 and 0 for float32). */
  scale: number;
  offset: number;
  /** Storage key of its array (`nwp/<version>/temperature_2m`): chunk `0.1.2` is `<key>/0.1.2`. */
  key: string;
  /** The array's directory when the storage is a local one (decode threads read chunks by path), else null. */
  dir: string | null;
  /** Codec pipeline from the variable's `.zarray`: zstd or none, then byte shuffle (element size, 0 = none). */
  zstd: boolean;
  shuffle: number;
  /** Its block kind (./block.ts) and position among that kind's variables. */
  kind: number;
  member: number;
  /** Read rule: nearest cell and step instead of bilinear + linear. */
  nearest: boolean;
  /**
   * A statistic over the interval ending at each time (manifest `interval`):
   * read from the step whose interval holds the asked time, never blended.
   */
  interval: boolean;
  /** Its interval's length, ms (Infinity: the step from the previous time); a time farther before the step is in no interval. */
  intervalMs: number;
  /** MASK_ANY, MASK_SEA or MASK_LAND. */
  mask: number;
}
