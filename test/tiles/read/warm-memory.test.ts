/**
 * The warms' memory (tiles/read/warm-memory.ts): a slab's regions, a slab
 * reused only once no block written into it is reachable (the collector is
 * run for real: V8's gc, exposed for this file), the spares' bound, and the
 * reserve faulted in by the function given.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { aligned, WarmMemory, type WarmSlab } from '../../../tiles/read/warm-memory.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 2 ** 20;

/** Collect, then give the FinalizationRegistry's callbacks their turn, until `done` or 50 tries. */
async function collectUntil(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 50 && !done(); i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  return done();
}

/** A slab with `n` blocks of `bytes` written into it and held, as a warm leaves it; the views returned. */
function fill(slab: WarmSlab, n: number, bytes: number): Int16Array[] {
  const views: Int16Array[] = [];
  for (let i = 0; i < n; i++) {
    const r = slab.take(bytes)!;
    const v = new Int16Array(r.buffer, r.offset, bytes / 2).fill(i + 1);
    slab.hold(v);
    views.push(v);
  }
  slab.seal();
  return views;
}

describe('memory for warms', () => {
  it('hands out disjoint regions, aligned to 64 bytes, until the slab is full', () => {
    const memory = new WarmMemory(async () => undefined);
    const slab = memory.slab(aligned(100) + aligned(200) + aligned(64));
    expect(slab.buffer.byteLength).toBe(128 + 256 + 64);
    expect([slab.take(100)?.offset, slab.take(200)?.offset, slab.take(64)?.offset]).toEqual([0, 128, 384]);
    expect(slab.take(1)).toBeNull();
  });

  it('reuses a slab only once no block written into it is reachable', async () => {
    const memory = new WarmMemory(async () => undefined);
    const first = memory.slab(4 * MiB);
    let views: Int16Array[] | null = fill(first, 4, MiB);
    // Every block still held (the cache, a request): the next warm gets new memory.
    const second = memory.slab(4 * MiB);
    expect(second.buffer).not.toBe(first.buffer);
    expect(await collectUntil(() => memory.spareBytes > 0)).toBe(false);
    expect(views[3]![0]).toBe(4);
    // One block left reachable: still not reused.
    let last: Int16Array | null = views[3]!;
    views = null;
    expect(await collectUntil(() => memory.spareBytes > 0)).toBe(false);
    expect(last[0]).toBe(4);
    // None: the slab is spare, and the next warm of that size is written into it.
    last = null;
    expect(await collectUntil(() => memory.spareBytes > 0)).toBe(true);
    expect(memory.spareBytes).toBe(4 * MiB);
    expect(memory.slab(4 * MiB).buffer).toBe(first.buffer);
    expect(memory.spareBytes).toBe(0);
  });

  it('faults in a spare of the largest warm for the next one, which takes it', async () => {
    const faulted: number[] = [];
    const memory = new WarmMemory(async (b) => {
      faulted.push(b.byteLength);
    });
    fill(memory.slab(3 * MiB), 3, MiB);
    fill(memory.slab(MiB), 1, MiB);
    await memory.reserve();
    expect(faulted).toEqual([3 * MiB]);
    expect(memory.spareBytes).toBe(3 * MiB);
    // A spare of that size already: nothing more.
    await memory.reserve();
    expect(faulted).toEqual([3 * MiB]);
    // A warm of less than half of it does not take it (a small store would hold the large one's memory)…
    expect(memory.slab(MiB).buffer.byteLength).toBe(MiB);
    expect(memory.spareBytes).toBe(3 * MiB);
    // …one of its size does.
    expect(memory.slab(3 * MiB).buffer.byteLength).toBe(3 * MiB);
    expect(memory.spareBytes).toBe(0);
  });

  it('keeps spares up to the largest warm, the largest first', () => {
    const memory = new WarmMemory(async () => undefined);
    // Sealed with no block held: spare at once. 4 + 1 MiB is over the largest warm's 4: the 1 MiB one goes.
    memory.slab(4 * MiB).seal();
    memory.slab(MiB).seal();
    expect(memory.spareBytes).toBe(4 * MiB);
    expect(memory.slab(4 * MiB).buffer.byteLength).toBe(4 * MiB);
    expect(memory.spareBytes).toBe(0);
  });
});
