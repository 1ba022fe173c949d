/**
 * Where a pool's worker thread starts (tiles/worker-module.ts): the compiled
 * entry beside a compiled caller; under TypeScript the one bootstrap, with the
 * entry's .ts beside the caller in workerData. The pools themselves start
 * their threads in test/tiles/write/encode-threads.test.ts,
 * test/tiles/read/decode-pool.test.ts and test/ingest/indices/derive-indices.test.ts.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workerModule } from '../../tiles/worker-module.js';

describe('workerModule', () => {
  it('a compiled caller starts the compiled entry beside it, with no workerData', () => {
    const m = workerModule('file:///srv/app/dist/tiles/write/encode-threads.js', 'encode-worker');
    expect(m.url.href).toBe('file:///srv/app/dist/tiles/write/encode-worker.js');
    expect(m.workerData).toBeUndefined();
  });

  it('a TypeScript caller starts the bootstrap, which exists, naming the .ts beside the caller', () => {
    const m = workerModule('file:///repo/ingest/indices/pool.ts', 'worker');
    expect(m.workerData).toEqual({ entry: 'file:///repo/ingest/indices/worker.ts' });
    expect(m.url.href.endsWith('/tiles/worker-ts.mjs')).toBe(true);
    expect(existsSync(fileURLToPath(m.url))).toBe(true);
  });
});
