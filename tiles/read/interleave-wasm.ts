/**
 * The unshuffle and interleave of an int16 block (./block.ts interleaveInto) as a WebAssembly SIMD kernel working
 * in the zstd decoder's memory (tiles/codecs/zstd.ts): each member's chunk is decoded there and interleaved from
 * where it lies into a scratch block there, which is then copied into the block's buffer in one sequential pass.
 * Sixteen values at a time: one 16-byte load of their low bytes and one of their high bytes, two shuffles that
 * pair them into sixteen int16, sixteen 2-byte stores at the block's cell stride: 34 against 70 µs of CPU per
 * 52 × 1,024-value chunk (interleaveInto's four at a time), the block's copy 23 µs per 8-member block; a whole
 * warm's block load 977 against 1,168 µs. Two members at a time, one 4-byte store per cell for both: the warm's
 * blocks another 11–15 % less (docs/benchmarks-journal.md, "The publish window's decode").
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
 *
 * `interleave2x2(srcA, srcB, len, n, plane, dst, cellStride, stepStride)`: the same for two members at once, A's
 * value at dst + …, B's 2 bytes after it, written together: four 4-byte stores per 4 cells instead of eight 2-byte
 * ones.
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
  const get = (l: number) => [0x20, l];
  const set = (l: number) => [0x21, l];
  const tee = (l: number) => [0x22, l];
  const simd = (op: number) => [0xfd, ...leb(op)];
  const I32 = 0x7f;
  const V128 = 0x7b;
  const I32_ADD = 0x6a;
  const I32_MUL = 0x6c;
  const load = (addr: number[]) => [...addr, ...simd(0x00), 0, 0];
  // i8x16.shuffle of (x, y): byte k of x, byte k of y (lane 16 + k), for k = first … first + 7.
  const zip = (first: number) => [...simd(0x0d), ...Array.from({ length: 16 }, (_, k) => (k & 1 ? 16 : 0) + first + (k >> 1))];
  // v128.storeN_lane (align 0, offset 0) of lanes 0 … lanes − 1 of v to o, o += cellStride after each.
  const scatter = (v: number, o: number, cs: number, op: number, lanes: number) => {
    const out: number[] = [];
    for (let k = 0; k < lanes; k++) out.push(...get(o), ...get(v), ...simd(op), 0, 0, k, ...get(o), ...get(cs), I32_ADD, ...set(o));
    return out;
  };
  // The loops around a row's 16 values at a time: t over 0 … n − 1, p over the row from row t's start, pB beside it.
  const loops = (l: { srcs: number[]; n: number; plane: number; dst: number; ts: number; t: number; ps: number[]; end: number; o: number }, inner: number[]) => [
    0x02, 0x40, 0x03, 0x40,
    ...get(l.t), ...get(l.n), 0x4f, 0x0d, 1, // t ≥ n: out
    ...l.srcs.flatMap((src, i) => [...get(src), ...get(l.t), ...get(l.plane), I32_MUL, I32_ADD, ...set(l.ps[i]!)]),
    ...get(l.ps[0]!), ...get(l.plane), I32_ADD, ...set(l.end),
    ...get(l.dst), ...get(l.t), ...get(l.ts), I32_MUL, I32_ADD, ...set(l.o),
    0x03, 0x40,
    ...inner,
    ...l.ps.slice(1).flatMap((q) => [...get(q), 0x41, 16, I32_ADD, ...set(q)]),
    ...get(l.ps[0]!), 0x41, 16, I32_ADD, ...tee(l.ps[0]!), ...get(l.end), 0x49, 0x0d, 0, // p += 16; p < end: again
    0x0b,
    ...get(l.t), 0x41, 1, I32_ADD, ...set(l.t), 0x0c, 0, // t++
    0x0b, 0x0b,
  ];
  const one = (() => {
    // Parameters src, len, n, plane, dst, cs, ts; locals t, p, end, o (i32), lo, hi, a, b (v128).
    const [src, len, n, plane, dst, cs, ts, t, p, end, o, lo, hi, a, b] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] as const;
    const inner = [
      ...load(get(p)), ...set(lo),
      ...load([...get(p), ...get(len), I32_ADD]), ...set(hi),
      ...get(lo), ...get(hi), ...zip(0), ...set(a),
      ...get(lo), ...get(hi), ...zip(8), ...set(b),
      ...scatter(a, o, cs, 0x59, 8), ...scatter(b, o, cs, 0x59, 8),
    ];
    return [2, 4, I32, 4, V128, ...loops({ srcs: [src], n, plane, dst, ts, t, ps: [p], end, o }, inner), 0x0b];
  })();
  const two = (() => {
    // Parameters srcA, srcB, len, n, plane, dst, cs, ts; locals t, p, pB, end, o (i32), loA, hiA, loB, hiB, x, y, v (v128).
    const [srcA, srcB, len, n, plane, dst, cs, ts, t, p, pB, end, o, loA, hiA, loB, hiB, x, y, v] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19] as const;
    const inner = [
      ...load(get(p)), ...set(loA),
      ...load([...get(p), ...get(len), I32_ADD]), ...set(hiA),
      ...load(get(pB)), ...set(loB),
      ...load([...get(pB), ...get(len), I32_ADD]), ...set(hiB),
    ];
    for (const half of [0, 8]) {
      // x: A's and B's low bytes of cells half … half + 7 paired, y their high bytes; then per 4 cells
      // [A low, A high, B low, B high]: A's int16 then B's.
      inner.push(...get(loA), ...get(loB), ...zip(half), ...set(x), ...get(hiA), ...get(hiB), ...zip(half), ...set(y));
      for (const quarter of [0, 8]) inner.push(...get(x), ...get(y), ...zip(quarter), ...set(v), ...scatter(v, o, cs, 0x5a, 4));
    }
    return [2, 5, I32, 7, V128, ...loops({ srcs: [srcA, srcB], n, plane, dst, ts, t, ps: [p, pB], end, o }, inner), 0x0b];
  })();
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [2, 0x60, 7, ...Array<number>(7).fill(I32), 0, 0x60, 8, ...Array<number>(8).fill(I32), 0]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]),
    ...section(3, [2, 0, 1]),
    ...section(7, [2, ...name('interleave2'), 0x00, 0, ...name('interleave2x2'), 0x00, 1]),
    ...section(10, [2, ...leb(one.length), ...one, ...leb(two.length), ...two]),
  ]);
}

type Kernel = (src: number, len: number, n: number, plane: number, dst: number, cellStride: number, stepStride: number) => void;
type Kernel2 = (srcA: number, srcB: number, len: number, n: number, plane: number, dst: number, cellStride: number, stepStride: number) => void;

/** The kernels bound to the decoder's memory, and that memory. */
export interface Interleaver {
  z: ZstdMemory;
  interleave2: Kernel;
  interleave2x2: Kernel2;
}

let kernel: Interleaver | null | undefined;

/** The kernel, once the decoder is loaded (tiles/codecs/zstd.ts zstdReady); null where it cannot run. */
export function wasmInterleaver(): Interleaver | null {
  if (kernel !== undefined) return kernel;
  const z = zstdWasm();
  if (!z) return null;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(kernelModule()), { env: { memory: z.memory } });
    kernel = { z, interleave2: instance.exports.interleave2 as Kernel, interleave2x2: instance.exports.interleave2x2 as Kernel2 };
  } catch {
    kernel = null;
  }
  return kernel;
}
