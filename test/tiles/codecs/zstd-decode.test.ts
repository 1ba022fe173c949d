/**
 * The read side's chunk decoding: zstd frames written by numcodecs (the codec
 * zarr-python reads and writes) decoded by tiles/codecs/zstd.ts, a shuffled
 * chunk unshuffled where it lies, and chunk files read into the reused buffer
 * of tiles/read/chunk-file.ts. The expected bytes are the arrays handed to
 * numcodecs in Python, never our own encoder's output.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unshuffleInPlace } from '../../../tiles/codecs/shuffle.js';
import { zstdDecode, zstdDecodeView, zstdReady } from '../../../tiles/codecs/zstd.js';
import { inflateChunk, inflateChunkView, readChunkFileSync } from '../../../tiles/read/chunk-file.js';

// Python writes three frames: int16 values zstd-compressed as they are, the same shuffled (2-byte elements), and
// float32 values shuffled (4-byte elements); the values go back as JSON beside them.
const SCRIPT = `
import json, sys
BIG = 24 << 20
import numpy as np
from numcodecs import Shuffle, Zstd
rng = np.random.default_rng(20261126)
i2 = (np.cumsum(rng.integers(-40, 41, 40000)) + rng.integers(-3, 4, 40000)).clip(-32767, 32767).astype('<i2')
i2[:4] = [-32768, 32767, -1, 0]
f4 = (rng.standard_normal(3000) * 1e3).astype('<f4')
z = Zstd(level=3)
print(json.dumps({
  'i2': i2.tolist(), 'f4': [float(v) for v in f4],
  'plain': list(bytes(z.encode(i2))),
  'shuf2': list(bytes(z.encode(Shuffle(elementsize=2).encode(i2)))),
  'shuf4': list(bytes(z.encode(Shuffle(elementsize=4).encode(f4)))),
  'big': list(bytes(z.encode(((np.arange(BIG, dtype=np.int64) % 251) ^ (np.arange(BIG, dtype=np.int64) >> 16)).astype(np.uint8)))),
}))
`;

interface Frames { i2: number[]; f4: number[]; plain: number[]; shuf2: number[]; shuf4: number[]; big: number[] }

/** The 24 MiB Python compressed as `big`: byte k is (k mod 251) xor (k >> 16), low 8 bits. */
const BIG = 24 << 20;
const bigByte = (k: number) => ((k % 251) ^ (k >>> 16)) & 0xff;

describe('zstd chunk decoding', () => {
  const py = JSON.parse(execFileSync('/usr/bin/python3', ['-c', SCRIPT], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 })) as Frames;
  const i2Bytes = new Uint8Array(Int16Array.from(py.i2).buffer);
  const f4Bytes = new Uint8Array(Float32Array.from(py.f4).buffer);
  const dir = mkdtempSync(join(tmpdir(), 'mp-zstd-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back the bytes numcodecs compressed, in a buffer of their own', async () => {
    const out = await zstdDecode(Uint8Array.from(py.plain), i2Bytes.length);
    expect(Buffer.from(out).equals(Buffer.from(i2Bytes))).toBe(true);
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(i2Bytes.length);
  });

  it('unshuffles numcodecs\' shuffled chunks where they lie: int16, then float32 after a larger one', async () => {
    const two = await zstdDecode(Uint8Array.from(py.shuf2), i2Bytes.length);
    unshuffleInPlace(two, 2);
    expect(Array.from(new Int16Array(two.buffer))).toEqual(py.i2);
    const four = await zstdDecode(Uint8Array.from(py.shuf4), f4Bytes.length);
    unshuffleInPlace(four, 4);
    expect(Array.from(new Float32Array(four.buffer))).toEqual(Array.from(Float32Array.from(py.f4)));
  });

  it('decodes into its own wasm memory for a block load, after a frame larger than that memory was at first', async () => {
    await zstdReady();
    const view = zstdDecodeView(Uint8Array.from(py.shuf2), i2Bytes.length);
    // In the decoder's memory (zstddec's module found and driven here), not a buffer of its own.
    expect(view.buffer.byteLength).toBeGreaterThan(i2Bytes.length);
    unshuffleInPlace(view, 2);
    expect(Array.from(new Int16Array(view.slice().buffer))).toEqual(py.i2);
    // 24 MiB out of a 16 MiB memory: it grows, and the views after it read the grown memory.
    const big = zstdDecodeView(Uint8Array.from(py.big), BIG);
    expect(big.length).toBe(BIG);
    let wrong = 0;
    for (let k = 0; k < BIG; k += 4099) if (big[k] !== bigByte(k)) wrong++;
    expect(big[BIG - 1]).toBe(bigByte(BIG - 1));
    expect(wrong).toBe(0);
    const again = zstdDecodeView(Uint8Array.from(py.plain), i2Bytes.length);
    expect(Buffer.from(again).equals(Buffer.from(i2Bytes))).toBe(true);
    // A buffer of its own after them, the planar blocks' way.
    const own = await zstdDecode(Uint8Array.from(py.shuf4), f4Bytes.length);
    expect(own.buffer.byteLength).toBe(f4Bytes.length);
    unshuffleInPlace(own, 4);
    expect(Array.from(new Float32Array(own.buffer))).toEqual(Array.from(Float32Array.from(py.f4)));
  });

  it('refuses a truncated frame, a damaged one and one of another size, naming the chunk', async () => {
    const f = { key: 'reanalysis/1995/t/0.0.0', file: '/data/t/0.0.0', zstd: true, shuffle: 0 };
    const frame = Uint8Array.from(py.plain);
    await expect(inflateChunk(f, frame.subarray(0, frame.length - 100), i2Bytes.length)).rejects.toThrow('/data/t/0.0.0: corrupt chunk');
    const damaged = frame.slice();
    damaged.fill(0xff, 20, 60);
    await expect(inflateChunk(f, damaged, i2Bytes.length)).rejects.toThrow('corrupt chunk');
    await expect(inflateChunk(f, frame, i2Bytes.length - 2)).rejects.toThrow('corrupt chunk');
    await expect(inflateChunk(f, frame, i2Bytes.length + 2)).rejects.toThrow(`(${i2Bytes.length} bytes decoded, ${i2Bytes.length + 2} expected)`);
    // The same through the block loads' view.
    expect(() => inflateChunkView(f, frame.subarray(0, frame.length - 100), i2Bytes.length)).toThrow('/data/t/0.0.0: corrupt chunk');
    expect(() => inflateChunkView(f, damaged, i2Bytes.length)).toThrow('corrupt chunk');
    expect(() => inflateChunkView(f, frame, i2Bytes.length - 2)).toThrow('corrupt chunk');
    expect(() => inflateChunkView(f, frame, i2Bytes.length + 2)).toThrow(`(${i2Bytes.length} bytes decoded, ${i2Bytes.length + 2} expected)`);
    expect(Buffer.from(inflateChunkView(f, frame, i2Bytes.length)).equals(Buffer.from(i2Bytes))).toBe(true);
  });

  it('reads chunk files whole into its reused buffer, one larger than the buffer too, and reports a missing one as ENOENT', () => {
    const small = Uint8Array.from(py.plain);
    const large = new Uint8Array(600_000).map((_, k) => (k * 7919) & 0xff);
    writeFileSync(join(dir, 'small'), small);
    writeFileSync(join(dir, 'large'), large);
    expect(Buffer.from(readChunkFileSync(join(dir, 'small'))).equals(Buffer.from(small))).toBe(true);
    expect(Buffer.from(readChunkFileSync(join(dir, 'large'))).equals(Buffer.from(large))).toBe(true);
    expect(Buffer.from(readChunkFileSync(join(dir, 'small'))).equals(Buffer.from(small))).toBe(true);
    expect(() => readChunkFileSync(join(dir, 'absent'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
