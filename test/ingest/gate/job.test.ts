/**
 * The gate in a job (the ingest processor as a plain function, no Redis):
 * a refused file fails the job at once with the gate's reason (what
 * `jobs status` shows as the failure), the live version stays; the job's
 * `allow` lets the check through and the manifest records it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterAll, expect, it } from 'vitest';
import { runIngest } from '../../../ingest/pipeline.js';
import type { IngestJobData } from '../../../jobs/job-types.js';
import { createIngestProcessor, type IngestJob } from '../../../jobs/processors/ingest.js';
import { describeShared } from '../../support/shared-data.js';
import { gateFile } from './support.js';

const job = (id: string, data: IngestJobData): IngestJob => ({ id, data, attemptsMade: 0, opts: { attempts: 3 }, updateProgress: async () => undefined });

describeShared('the ingest gate in a job', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-gate-job-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails the job with the gate reason, keeps the live version; allow lets the check through, recorded', async () => {
    const root = join(dir, 'data');
    const manifest = () => readFileSync(join(root, 'tiles', 'nwp', 'current.json'), 'utf8');
    const process = createIngestProcessor({ root, runIngest });
    await process(job('nwp@valid', { product: 'nwp', source: { kind: 'local', paths: [gateFile(dir, 'valid')] }, trigger: 'operator' }));
    const live = manifest();

    const kelvin = gateFile(dir, 'kelvin');
    const err = await process(job('nwp@kelvin', { product: 'nwp', source: { kind: 'local', paths: [kelvin] }, trigger: 'operator' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect((err as Error).message).toMatch(/^t2m-kelvin\.nc: refused by the ingest gate: physical-range: temperature_2m: \d+ of \d+ values outside -90 … 60 °C/);
    expect(manifest()).toBe(live);

    const done = await process(job('nwp@kelvin', { product: 'nwp', source: { kind: 'local', paths: [kelvin] }, trigger: 'operator', allow: ['physical-range'] }));
    expect('version' in done).toBe(true);
    const m = JSON.parse(manifest()) as { source: { gate_overrides?: { check: string; findings: string[] }[] } };
    expect(m.source.gate_overrides?.map((o) => o.check)).toEqual(['physical-range']);
  }, 60_000);
});
