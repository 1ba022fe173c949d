/**
 * A store of a forecast product never goes back to an older run of the
 * model it serves: two workers finishing overlapping runs in the wrong order
 * (seen in the bucket soak: live runs 0 → 1 → 3 → 2) leave the newer run
 * live, on a directory and on a bucket, whether the older run comes after
 * the newer one or races it. The rule comes from the catalogue
 * (`runOrder`): products whose runs are not forecast runs publish in any
 * order. Inputs go through withCatalogue, as the sample data and the
 * benchmarks write them, so the catalogue's flag is what is exercised.
 */
import { mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { OlderRunRefused, PublishConflict } from '../../../tiles/write/publish.js';
import { readManifest } from '../../../tiles/manifest-file.js';
import { redisLock } from '../../../tiles/storage/redis-lock.js';
import { bucketVersions } from '../../../tiles/ops/bucket-gc.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { withCatalogue } from '../../../ingest/products/catalogue-input.js';
import type { TilesAt } from '../../../tiles/storage/open.js';
import type { ProductVersionInput } from '../../../tiles/types.js';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { constantInput, T0 } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const H06 = '2026-11-26T06:00:00.000Z';
const H12 = '2026-11-26T12:00:00.000Z';

/** Version k of `product` (every value k), run `run` of `model`, with what the catalogue says. */
function runInput(product: string, k: number, model: string, run: string): ProductVersionInput {
  const i = constantInput(product, k);
  return withCatalogue({ ...i, source: { ...i.source, model, run } });
}

async function liveRun(at: TilesAt, product = 'nwp'): Promise<{ run?: string; value: number | null }> {
  const store = new TileStore(at);
  await store.ready([product]);
  const m = store.manifest(product)!;
  return { run: m.source.run, value: (await store.sample(product, 40, 10, T0, ['temperature_2m'])).values.temperature_2m ?? null };
}

describe('run order on a directory', () => {
  it('refuses an older run of the same model: typed error, the newer run stays live, nothing left behind', async () => {
    const root = tempRoot('run-order');
    const newer = await writeProductVersion(root, runInput('nwp', 12, 'ICON-2I', H12));
    expect(newer.manifest.source.run_order).toBe('forecast'); // from the catalogue's nwp entry
    const err = await writeProductVersion(root, runInput('nwp', 6, 'ICON-2I', H06)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OlderRunRefused);
    expect((err as Error).message).toMatch(/run 2026-11-26T06:00:00\.000Z of ICON-2I is older than the live run 2026-11-26T12:00:00\.000Z/);
    expect(await liveRun(root)).toEqual({ run: H12, value: 12 });
    // Only the live version is on disk: no temp directory, no orphan version, no lock left.
    expect(readdirSync(join(root, 'tiles', 'nwp')).sort()).toEqual([newer.version, 'current.json']);
  });

  it('two writers racing with the runs in either order: the newer run is live at the end', async () => {
    for (const order of [[6, 12], [12, 6]] as const) {
      const root = tempRoot('run-order-race');
      await writeProductVersion(root, runInput('nwp', 0, 'ICON-2I', '2026-11-26T00:00:00.000Z'));
      const runs = order.map((h) => writeProductVersion(root, runInput('nwp', h, 'ICON-2I', h === 6 ? H06 : H12)));
      const results = await Promise.allSettled(runs);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(OlderRunRefused);
      expect(await liveRun(root)).toEqual({ run: H12, value: 12 });
    }
  });

  it('another model replaces the live run whatever its time; the same run may be published again', async () => {
    const root = tempRoot('run-order');
    await writeProductVersion(root, runInput('nwp', 9, 'ICON-EU', H12));
    await writeProductVersion(root, runInput('nwp', 6, 'ICON-2I', H06)); // the primary model's late run over its fallback's
    expect(await liveRun(root)).toEqual({ run: H06, value: 6 });
    await writeProductVersion(root, runInput('nwp', 7, 'ICON-2I', H06));
    expect(await liveRun(root)).toEqual({ run: H06, value: 7 });
  });

  it('a product whose runs are not forecast runs (uv-nrt: satellite slots, carried over) publishes an older run', async () => {
    const root = tempRoot('run-order');
    const v = await writeProductVersion(root, runInput('uv-nrt', 12, 'EUMETSAT LSA SAF MSG MDSSFTD', H12));
    expect(v.manifest.source.run_order).toBeUndefined();
    await writeProductVersion(root, runInput('uv-nrt', 6, 'EUMETSAT LSA SAF MSG MDSSFTD', H06));
    expect(await liveRun(root, 'uv-nrt')).toEqual({ run: H06, value: 6 });
  });

  it('a broken live manifest does not block the next publish', async () => {
    const root = tempRoot('run-order');
    mkdirSync(join(root, 'tiles', 'nwp'), { recursive: true });
    writeFileSync(join(root, 'tiles', 'nwp', 'current.json'), '{"format": 1}');
    await writeProductVersion(root, runInput('nwp', 6, 'ICON-2I', H06));
    expect(await liveRun(root)).toEqual({ run: H06, value: 6 });
  });
});

describe('run order on a bucket', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
  });
  const fresh = () => `ro-${randomBytes(4).toString('hex')}`;

  it('refuses an older run after a newer one: nothing uploaded, the newer run stays live', async () => {
    const prefix = fresh();
    const bucket = s3.storage(prefix, { lock: redisLock(inject('redisUrl'), `mp-test-${prefix}`) });
    const newer = await writeProductVersion(bucket, runInput('nwp', 12, 'ICON-2I', H12));
    const err = await writeProductVersion(bucket, runInput('nwp', 6, 'ICON-2I', H06)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OlderRunRefused);
    expect(await liveRun(bucket)).toEqual({ run: H12, value: 12 });
    expect((await bucketVersions(bucket, 'nwp', newer.version)).map((v) => v.name)).toEqual([newer.version]);
  });

  it('two writers (own clients and staging) racing with the runs in either order: the newer run is live at the end', async () => {
    for (const order of [[6, 12], [12, 6]] as const) {
      const prefix = fresh();
      const lock = redisLock(inject('redisUrl'), `mp-test-${prefix}`);
      await writeProductVersion(s3.storage(prefix, { lock }), runInput('nwp', 0, 'ICON-2I', '2026-11-26T00:00:00.000Z'));
      const results = await Promise.allSettled(order.map((h) => writeProductVersion(s3.storage(prefix, { lock }), runInput('nwp', h, 'ICON-2I', h === 6 ? H06 : H12))));
      // The loser of the switch is refused as older (run 06) or lost the conditional write (run 12, retried by its worker).
      for (const r of results) if (r.status === 'rejected') expect(r.reason instanceof OlderRunRefused || r.reason instanceof PublishConflict, String(r.reason)).toBe(true);
      const reader = s3.storage(prefix);
      const live = (await readManifest(reader, 'nwp'))!;
      if (live.source.run !== H12) {
        // Run 12 lost the conditional write to run 06: its worker's retry publishes it over 06.
        expect(results[order.indexOf(12)]!.status).toBe('rejected');
        await writeProductVersion(s3.storage(prefix, { lock }), runInput('nwp', 12, 'ICON-2I', H12));
      }
      // Run 06 arriving (again) after 12: refused.
      await expect(writeProductVersion(s3.storage(prefix, { lock }), runInput('nwp', 6, 'ICON-2I', H06))).rejects.toBeInstanceOf(OlderRunRefused);
      expect(await liveRun(reader)).toEqual({ run: H12, value: 12 });
    }
  });
});
