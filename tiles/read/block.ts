/**
 * In-memory layout of the point reader's cache: a *block* holds one spatial
 * chunk of every variable of one *kind*, interleaved as [cell][time][member].
 * A kind is a cache group named by the manifest (`variables[v].block`: what
 * requests read together, e.g. nwp's 'base' fields apart from its
 * 'developer' inputs) crossed with the element type (int16 / float32) and
 * whether the variable varies in time; so a request decodes only the groups
 * it reads.
 *
 * Why interleave: a warm lookup is bound by memory latency, not arithmetic.
 * In the on-disk layout ([time][y][x] per variable, Zarr) each variable's four
 * neighbours at the two bracketing steps sit on four cache lines of their own
 * chunk, so a request reading ~10 variables (30 with the Developer fields)
 * touches 40–120 lines spread over hundreds of MB. Interleaved, all variables
 * of a cell at both steps are contiguous: a few lines per neighbour for the
 * whole request, and the step three hours back (the trend) is a few dozen
 * bytes away.
 *
 * Except in stores chunked along time (a reanalysis year: `chunk.t` in the
 * manifest): `time=` asks random hours of the year, so most lookups there
 * are misses, and a miss's cost is the p99. Their blocks are *planar*, each
 * member's chunk as stored ([member][time][cell], ./planar-block.ts), and
 * each variable is a kind of its own, so a miss decodes only the variables
 * asked for (a Free request leaves relative humidity out of 'base') and
 * nothing is interleaved. A warm lookup there touches a few more cache lines
 * (measured in docs/benchmarks-journal.md). A store of more variables than
 * there can be kinds keeps the manifest's groups, planar too.
 */
import type { ChunkFile } from './chunk-file.js';
import { unshuffle } from '../codecs/shuffle.js';
import type { BlockRegion } from './warm-memory.js';

/** A block to load: the same spatial chunk of several variables of one kind. */
export interface BlockRequest {
  id: number;
  int16: boolean;
  /** The member variables' chunk files, in member order. */
  files: ChunkFile[];
  /** Time steps per block (1 for static variables, 2 for a bridge). */
  steps: number;
  /** Time steps per chunk file (default: `steps`). */
  chunkSteps?: number;
  /** A bridge: the members' chunk files of the next time chunk, whose first step follows the last of `files`. */
  next?: ChunkFile[];
  /** Cells per chunk plane (chunk rows × columns). */
  plane: number;
  /** Planar layout (stores chunked along time) instead of interleaved. */
  planar?: boolean;
  /** The stored bytes of `files` (and of `next`), already fetched: a bucket's chunks are fetched on the main thread. */
  data?: Uint8Array[];
  nextData?: Uint8Array[];
  /** A warm's block: written into this region of a slab (./warm-memory.ts) instead of a buffer of its own. */
  into?: BlockRegion;
}

/** One kind of block of a version: its group, element type and time dependence. */
export interface BlockKind {
  group: string;
  int16: boolean;
  isStatic: boolean;
}

/** Kinds per version are numbered 0..n−1 and recorded in a 32-bit mask per variable list. */
export const MAX_BLOCK_KINDS = 31;

/**
 * Steps first … first + n − 1 of member m's chunk, as decompressed (`raw`: [time][cell] packed values of `size`
 * bytes, byte-shuffled with element size `shuffle`, 0 for none), into the interleaved block `out` (a view of its
 * buffer with one element per value: Uint16Array for int16, Uint32Array for float32's bits) at steps t0 … t0 + n − 1
 * of `steps`: the unshuffle and the interleave in one pass, member by member, so that a block load reads each
 * chunk file, decodes it and writes its values once, with no unshuffled copy of each chunk beside the block.
 * Half the CPU of an unshuffle then an interleave of the unshuffled chunks (1.4 against 2.7 ms per 8-member nwp
 * block, the loops alone, byte by byte; docs/benchmarks-journal.md, "Publish window"); int16 goes four at a time.
 */
export function interleaveInto(raw: Uint8Array, shuffle: number, size: 2 | 4, first: number, n: number, plane: number, out: Uint16Array | Uint32Array, members: number, m: number, steps: number, t0: number): void {
  const len = raw.length / size;
  const cellStride = steps * members;
  if (shuffle === size) {
    // Byte b of element i is at b × len + i (tiles/codecs/shuffle.ts); assembled little-endian, as Zarr's '<i2'/'<f4'.
    if (size === 2 && raw.byteOffset % 4 === 0 && len % 4 === 0 && plane % 4 === 0) {
      interleave2Wide(raw, len, first, n, plane, out, members, m, steps, t0);
      return;
    }
    for (let t = 0; t < n; t++) {
      const row = (first + t) * plane;
      let o = (t0 + t) * members + m;
      if (size === 2) {
        for (let i = row; i < row + plane; i++, o += cellStride) out[o] = raw[i]! | (raw[len + i]! << 8);
      } else {
        for (let i = row; i < row + plane; i++, o += cellStride) out[o] = raw[i]! | (raw[len + i]! << 8) | (raw[2 * len + i]! << 16) | (raw[3 * len + i]! << 24);
      }
    }
    return;
  }
  // Not shuffled (or by another element size, unshuffled first): whole elements, through an aligned view.
  let bytes = shuffle > 1 ? unshuffle(raw, shuffle) : raw;
  if (bytes.byteOffset % size !== 0) bytes = bytes.slice();
  const src = size === 2 ? new Uint16Array(bytes.buffer, bytes.byteOffset, len) : new Uint32Array(bytes.buffer, bytes.byteOffset, len);
  for (let t = 0; t < n; t++) {
    const row = (first + t) * plane;
    for (let i = row, o = (t0 + t) * members + m; i < row + plane; i++, o += cellStride) out[o] = src[i]!;
  }
}

/**
 * {@link interleaveInto} for 2-byte elements four at a time: one 32-bit load of four low bytes and one of their
 * four high bytes, as tiles/codecs/shuffle.ts unshuffles: 0.78 against 1.33 ms per 8-member block (the loops
 * alone, min of 15 rounds).
 */
function interleave2Wide(raw: Uint8Array, len: number, first: number, n: number, plane: number, out: Uint16Array | Uint32Array, members: number, m: number, steps: number, t0: number): void {
  const lo = new Uint32Array(raw.buffer, raw.byteOffset, len >> 2);
  const hi = new Uint32Array(raw.buffer, raw.byteOffset + len, len >> 2);
  const cellStride = steps * members;
  for (let t = 0; t < n; t++) {
    const k0 = ((first + t) * plane) >> 2;
    let o = (t0 + t) * members + m;
    for (let k = k0; k < k0 + (plane >> 2); k++) {
      const l = lo[k]!;
      const h = hi[k]!;
      out[o] = (l & 0xff) | ((h & 0xff) << 8);
      o += cellStride;
      out[o] = ((l >>> 8) & 0xff) | (h & 0xff00);
      o += cellStride;
      out[o] = ((l >>> 16) & 0xff) | ((h >>> 8) & 0xff00);
      o += cellStride;
      out[o] = (l >>> 24) | ((h >>> 16) & 0xff00);
      o += cellStride;
    }
  }
}
