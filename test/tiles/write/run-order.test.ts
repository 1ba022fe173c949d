/**
 * A store never goes back to an older run of the model it serves: two
 * workers finishing overlapping runs out of order (seen in the bucket soak:
 * live runs 0 → 1 → 3 → 2) must leave the newer run live. Another model's
 * run replaces the live one whatever its time (the primary model's late run
 * replaces its fallback's), and the same run may be published again.
 */
import { describe, expect, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { OlderRunRefused } from '../../../tiles/write/publish.js';
import { isPermanent } from '../../../jobs/processors/ingest.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { constantInput, T0 } from '../fields.js';
import { tempRoot } from '../temp-root.js';

function run(k: number, model: string, iso: string) {
  const i = constantInput('nwp', k);
  return { ...i, source: { ...i.source, model, run: iso } };
}

describe('run order on publish', () => {
  it('refuses an older run of the same model, and the newer run stays live', async () => {
    const root = tempRoot('run-order');
    await writeProductVersion(root, run(12, 'ICON-2I', '2026-11-26T12:00:00.000Z'));
    const err = await writeProductVersion(root, run(6, 'ICON-2I', '2026-11-26T06:00:00.000Z')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OlderRunRefused);
    expect((err as Error).message).toMatch(/run 2026-11-26T06:00:00\.000Z of ICON-2I is older than the live run 2026-11-26T12:00:00\.000Z/);
    expect(isPermanent(err)).toBe(true); // a worker does not retry it
    expect(new TileStore(root).manifest('nwp')!.source.run).toBe('2026-11-26T12:00:00.000Z');
  });

  it('lets another model replace the live run whatever its time, and the same run be published again', async () => {
    const root = tempRoot('run-order');
    await writeProductVersion(root, run(9, 'ICON-EU', '2026-11-26T06:00:00.000Z'));
    await writeProductVersion(root, run(12, 'ICON-2I', '2026-11-26T00:00:00.000Z'));
    expect(new TileStore(root).manifest('nwp')!.source.model).toBe('ICON-2I');
    await writeProductVersion(root, run(13, 'ICON-2I', '2026-11-26T00:00:00.000Z'));
    expect((await new TileStore(root).sample('nwp', 40, 12, T0, ['temperature_2m'])).values.temperature_2m).toBeCloseTo(13, 2);
  });
});
