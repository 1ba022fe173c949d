/**
 * Zstandard chunk codec (numcodecs' `zstd`, the same codec id zarr-python
 * decodes with numcodecs.Zstd). Encoding is numcodecs' wasm; decoding is
 * zstddec's (a decoder-only wasm build of the same library): a `time=` miss
 * decodes about 8 chunks, and numcodecs' decode copies the compressed bytes
 * into wasm memory one byte at a time (embind's string conversion) and
 * copies the result out element by element; zstddec does both as one
 * memory copy, 25–35 % less CPU per 128 KiB chunk (measured in
 * docs/benchmarks-journal.md). Each wasm module is loaded once, lazily.
 *
 * zstddec's own `decode` mallocs two buffers in wasm memory per frame and
 * hands the result out as a fresh copy; a block load (tiles/read/block-read.ts)
 * only reads each decoded chunk once, right away. So zstddec's wasm module
 * is instantiated here a second time and driven directly: the frame goes into
 * one input buffer kept in wasm memory, is decoded into one output buffer
 * kept there, and the caller reads it where it lies ({@link zstdDecodeView}):
 * 74 against 107–136 µs of CPU per 104 KiB chunk (median of 9 rounds over
 * 881 sample chunks, docs/benchmarks-journal.md, "The publish window's
 * decode"). zstddec exports only its class, so the module's bytes are taken
 * from its build (the base64 `wasm` constant); should that ever fail (another
 * zstddec build), the class's decode serves as before.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Zstd from 'numcodecs/zstd';
import { ZSTDDecoder } from 'zstddec';

/** Level 3 (zstd's default): about 4× on smooth int16 fields, fast both ways. */
export const ZSTD_LEVEL = 3;

/** The `.zarray` `compressor` entry. */
export const ZSTD_COMPRESSOR = { id: 'zstd', level: ZSTD_LEVEL } as const;

const codec = Zstd.fromConfig({ id: 'zstd', level: ZSTD_LEVEL });

export async function zstdEncode(raw: Uint8Array): Promise<Uint8Array> {
  return codec.encode(raw);
}

/** What this module uses of zstddec's wasm exports (zstd's ZSTD_decompress, emscripten's malloc and free). */
interface ZstdExports {
  memory: WebAssembly.Memory;
  malloc(bytes: number): number;
  free(ptr: number): void;
  ZSTD_decompress(dst: number, dstCapacity: number, src: number, srcSize: number): number;
}

/** The decoder's memory as a kernel working beside it sees it ({@link zstdWasm}). */
export interface ZstdMemory {
  readonly memory: WebAssembly.Memory;
  bytes(): Uint8Array;
  scratch(bytes: number): number;
}

/** zstddec's wasm module driven directly: one input and one output buffer in its memory, grown when needed. */
class WasmZstd implements ZstdMemory {
  private heap: Uint8Array;
  private inPtr = 0;
  private inCap = 0;
  /** Two output buffers: a kernel may read two decoded chunks at once (tiles/read/interleave-wasm.ts). */
  private readonly outPtr = [0, 0];
  private readonly outCap = [0, 0];

  constructor(private readonly x: ZstdExports) {
    this.heap = new Uint8Array(x.memory.buffer);
  }

  /** Called by the module when malloc grows its memory (the old buffer is detached then). */
  grown(): void {
    this.heap = new Uint8Array(this.x.memory.buffer);
  }

  /** The module's memory, for a kernel working on the decoded bytes where they lie (tiles/read/interleave-wasm.ts). */
  get memory(): WebAssembly.Memory {
    return this.x.memory;
  }

  /** The memory as bytes now (a view taken before a decode may be detached by its growth). */
  bytes(): Uint8Array {
    return this.heap.buffer === this.x.memory.buffer ? this.heap : (this.heap = new Uint8Array(this.x.memory.buffer));
  }

  private scratchPtr = 0;
  private scratchCap = 0;

  /** The address of a region of `bytes` in the memory, kept for the next call (grown when needed). */
  scratch(bytes: number): number {
    if (bytes > this.scratchCap) {
      if (this.scratchPtr) this.x.free(this.scratchPtr);
      this.scratchCap = bytes;
      this.scratchPtr = this.x.malloc(bytes);
      if (!this.scratchPtr) throw new Error('zstd: out of wasm memory');
    }
    return this.scratchPtr;
  }

  /**
   * The frame decoded into output buffer `slot` (0 or 1): `bytes` long, or shorter (empty) when it is corrupt or of
   * another size.
   */
  decode(compressed: Uint8Array, bytes: number, slot = 0): Uint8Array {
    const x = this.x;
    if (compressed.length > this.inCap) {
      if (this.inPtr) x.free(this.inPtr);
      this.inCap = Math.max(compressed.length, 1 << 16);
      this.inPtr = x.malloc(this.inCap);
    }
    if (bytes > this.outCap[slot]!) {
      if (this.outPtr[slot]) x.free(this.outPtr[slot]!);
      this.outCap[slot] = bytes;
      this.outPtr[slot] = x.malloc(bytes);
    }
    const out = this.outPtr[slot]!;
    if (!this.inPtr || !out) throw new Error('zstd: out of wasm memory');
    this.heap.set(compressed, this.inPtr);
    // size_t on wasm32: an error code (−1 … −120 as i32) is negative, so it decodes to an empty view.
    const n = x.ZSTD_decompress(out, bytes, this.inPtr, compressed.length);
    return this.heap.subarray(out, out + (n > 0 ? n : 0));
  }
}

/** zstddec's wasm module, from its build's base64 constant; null when that build does not have one. */
function zstddecModuleBytes(): Uint8Array<ArrayBuffer> | null {
  try {
    const text = readFileSync(createRequire(import.meta.url).resolve('zstddec'), 'utf8');
    const b64 = /\bconst wasm = "([A-Za-z0-9+/=]+)"/.exec(text)?.[1];
    return b64 ? new Uint8Array(Buffer.from(b64, 'base64')) : null;
  } catch {
    return null;
  }
}

async function loadWasm(): Promise<WasmZstd | null> {
  const bytes = zstddecModuleBytes();
  if (!bytes) return null;
  try {
    let z: WasmZstd | undefined;
    const module = await WebAssembly.compile(bytes);
    const instance = new WebAssembly.Instance(module, { env: { emscripten_notify_memory_growth: () => z?.grown() } });
    const x = instance.exports as unknown as ZstdExports;
    if (typeof x.ZSTD_decompress !== 'function' || typeof x.malloc !== 'function' || !(x.memory instanceof WebAssembly.Memory)) return null;
    z = new WasmZstd(x);
    return z;
  } catch {
    return null;
  }
}

let wasm: WasmZstd | null = null;
const decoder = new ZSTDDecoder();
let loading: Promise<void> | null = null;
let loaded = false;

/** Resolves once the decoder is loaded; {@link zstdDecodeSync} and {@link zstdDecodeView} may be called from then on. */
export async function zstdReady(): Promise<void> {
  if (loaded) return;
  await (loading ??= (async () => {
    wasm = await loadWasm();
    if (!wasm) await decoder.init();
  })());
  loaded = true;
}

/**
 * The decompressed bytes of one zstd frame of `bytes` bytes, in a buffer of their own (tiles/read/planar-block.ts
 * keeps it as a block). A frame that is corrupt or of another size gives back a different length (no throw): the
 * caller checks it. Only after {@link zstdReady}.
 */
export function zstdDecodeSync(compressed: Uint8Array, bytes: number): Uint8Array {
  if (!loaded) throw new Error('zstdDecodeSync before zstdReady');
  return wasm ? wasm.decode(compressed, bytes).slice() : decoder.decode(compressed, bytes);
}

/**
 * As {@link zstdDecodeSync}, but the bytes may lie in the decoder's own memory, in output buffer `slot` (0 or 1):
 * valid until the next decode into that buffer on this thread, so read them before anything else runs (a block load
 * copies each chunk into its block at once, or two at once).
 */
export function zstdDecodeView(compressed: Uint8Array, bytes: number, slot = 0): Uint8Array {
  if (!loaded) throw new Error('zstdDecodeView before zstdReady');
  return wasm ? wasm.decode(compressed, bytes, slot) : decoder.decode(compressed, bytes);
}

/**
 * The decoder's wasm memory and its scratch region, for a kernel reading {@link zstdDecodeView}'s bytes where they
 * lie; null before {@link zstdReady} or when zstddec's module could not be driven directly.
 */
export function zstdWasm(): ZstdMemory | null {
  return loaded ? wasm : null;
}

/** As {@link zstdDecodeSync}, loading the decoder first when needed. */
export async function zstdDecode(compressed: Uint8Array, bytes: number): Promise<Uint8Array> {
  await zstdReady();
  return zstdDecodeSync(compressed, bytes);
}
