/**
 * The unshuffle and interleave of an int16 block (./block.ts interleaveInto) as a WebAssembly SIMD kernel working
 * in the zstd decoder's memory (tiles/codecs/zstd.ts): each member's chunk is decoded there and interleaved from
 * where it lies into a scratch block there, which is then copied into the block's buffer in one sequential pass.
 * Sixteen values at a time: one 16-byte load of their low bytes and one of their high bytes, two shuffles that
 * pair them into sixteen int16, sixteen 2-byte stores at the block's cell stride. 34 against 70 µs of CPU per
 * 52 × 1,024-value chunk (interleaveInto's four at a time), the block's copy 23 µs per 8-member block; a whole
 * warm's block load 977 against 1,168 µs (docs/benchmarks-journal.md, "The publish window's decode").
 *
 * The module is assembled here (a few hundred bytes: no toolchain, no binary in the repository) and imports the
 * decoder's memory; where WebAssembly SIMD is missing or the decoder is zstddec's class (no memory to share),
 * interleaveInto serves.
 */
import { zstdWasm, type ZstdMemory } from '../codecs/zstd.js';

/**
 * `interleave2(src, len, n, plane, dst, cellStride, stepStride)`, all byte addresses and strides in the memory:
 * rows 0 … n − 1 of `plane` values whose low bytes start at src + row × plane and high bytes `len` further (a
 * shuffled chunk of `len` values, from its first row wanted), value c of row t to dst + t × stepStride +
 * c × cellStride. `plane` a multiple of 16, n ≥ 1.
 */
function kernelModule(): Uint8Array<ArrayBuffer> {
  const leb = (v: number): number[] => {
    const out: number[] = [];
    do {
      let b = v & 0x7f;
      v >>>= 7;
      if (v) b |= 0x80;
      out.push(b);
    } while (v);
    return out;
  };
  const name = (s: string) => [...leb(s.length), ...Buffer.from(s, 'latin1')];
  const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
  // Parameters 0–6, then locals t, p, end, o (i32) and lo, hi, a, b (v128).
  const [src, len, n, plane, dst, cs, ts, t, p, end, o, lo, hi, a, b] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] as const;
  const get = (l: number) => [0x20, l];
  const set = (l: number) => [0x21, l];
  const tee = (l: number) => [0x22, l];
  const simd = (op: number) => [0xfd, ...leb(op)];
  const I32_ADD = 0x6a;
  const I32_MUL = 0x6c;
  // i8x16.shuffle of (lo, hi): low byte k, high byte k (lane 16 + k), for k = first … first + 7: eight int16.
  const pairs = (first: number) => [...simd(0x0d), ...Array.from({ length: 16 }, (_, k) => (k & 1 ? 16 : 0) + first + (k >> 1))];
  // v128.store16_lane (align 0, offset 0) of each of the 16 values to o, o += cellStride.
  const stores: number[] = [];
  for (const v of [a, b]) for (let k = 0; k < 8; k++) stores.push(...get(o), ...get(v), ...simd(0x59), 0, 0, k, ...get(o), ...get(cs), I32_ADD, ...set(o));
  const body = [
    2, 4, 0x7f, 4, 0x7b,
    0x02, 0x40, 0x03, 0x40, // block, loop over t
    ...get(t), ...get(n), 0x4f, 0x0d, 1, // t ≥ n: out
    ...get(src), ...get(t), ...get(plane), I32_MUL, I32_ADD, ...tee(p), ...get(plane), I32_ADD, ...set(end),
    ...get(dst), ...get(t), ...get(ts), I32_MUL, I32_ADD, ...set(o),
    0x03, 0x40, // loop over the row, 16 values at a time
    ...get(p), ...simd(0x00), 0, 0, ...set(lo),
    ...get(p), ...get(len), I32_ADD, ...simd(0x00), 0, 0, ...set(hi),
    ...get(lo), ...get(hi), ...pairs(0), ...set(a),
    ...get(lo), ...get(hi), ...pairs(8), ...set(b),
    ...stores,
    ...get(p), 0x41, 16, I32_ADD, ...tee(p), ...get(end), 0x49, 0x0d, 0, // p += 16; p < end: again
    0x0b,
    ...get(t), 0x41, 1, I32_ADD, ...set(t), 0x0c, 0, // t++
    0x0b, 0x0b, 0x0b,
  ];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 7, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('interleave2'), 0x00, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

type Kernel = (src: number, len: number, n: number, plane: number, dst: number, cellStride: number, stepStride: number) => void;

/** The kernel bound to the decoder's memory, and that memory. */
export interface Interleaver {
  z: ZstdMemory;
  interleave2: Kernel;
}

let kernel: Interleaver | null | undefined;

/** The kernel, once the decoder is loaded (tiles/codecs/zstd.ts zstdReady); null where it cannot run. */
export function wasmInterleaver(): Interleaver | null {
  if (kernel !== undefined) return kernel;
  const z = zstdWasm();
  if (!z) return null;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(kernelModule()), { env: { memory: z.memory } });
    kernel = { z, interleave2: instance.exports.interleave2 as Kernel };
  } catch {
    kernel = null;
  }
  return kernel;
}
