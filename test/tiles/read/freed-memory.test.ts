/**
 * The memory of a warm's blocks (SharedArrayBuffers, which V8 does not count: tiles/read/decode-worker.ts)
 * reported to V8 when they leave the cache (tiles/read/freed-memory.ts): what is reported, when, and that the
 * report does start V8's collector.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ChunkCache, type BlockRequest } from '../../../tiles/read/chunk-cache.js';
import { FreedMemory, REPORT_BYTES, reportToV8 } from '../../../tiles/read/freed-memory.js';

const MiB = 2 ** 20;
const req = (id: number) => ({ id }) as BlockRequest;
const sharedBlock = (bytes: number) => Promise.resolve(new Int16Array(new SharedArrayBuffer(bytes)));
const ownBlock = (bytes: number) => Promise.resolve(new Int16Array(new ArrayBuffer(bytes)));

describe('freed shared memory reported to V8', () => {
  it('reports all at once when a version leaves, evictions once they reach the step, never unshared blocks', async () => {
    const reports: number[] = [];
    const cache = new ChunkCache(40 * MiB, undefined, undefined, new FreedMemory((n) => reports.push(n)));
    for (let id = 0; id < 10; id++) await cache.warm(req(id), () => sharedBlock(MiB));
    for (let id = 10; id < 13; id++) await cache.warm(req(id), () => ownBlock(MiB));
    cache.deleteRange(0, 4); // 4 shared, reported at once
    cache.deleteRange(10, 3); // unshared: V8 counted them already
    expect(reports).toEqual([4 * MiB]);
    // Evictions (a cache over its budget): reported once REPORT_BYTES have gathered.
    const block = REPORT_BYTES / 8;
    for (let id = 100; id < 100 + 40 * MiB / block + 9; id++) await cache.warm(req(id), () => sharedBlock(block));
    expect(reports.length).toBe(2);
    expect(reports[1]).toBeGreaterThanOrEqual(REPORT_BYTES);
    expect(reports[1]).toBeLessThan(REPORT_BYTES + block);
    cache.clear();
    expect(reports.reduce((a, b) => a + b, 0)).toBe(4 * MiB + 6 * MiB + (40 * MiB / block + 9) * block);
  });

  it('the report starts a major GC (V8 counts it as external memory)', async () => {
    const majors: number[] = [];
    const obs = new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        const kind = (e as unknown as { detail: { kind: number } }).detail.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) majors.push(kind);
      }
    });
    obs.observe({ entryTypes: ['gc'] });
    try {
      reportToV8(512 * MiB);
      for (let i = 0; i < 100 && !majors.includes(constants.NODE_PERFORMANCE_GC_MAJOR); i++) await new Promise((r) => setTimeout(r, 50));
      expect(majors).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
    } finally {
      obs.disconnect();
    }
  });
});
