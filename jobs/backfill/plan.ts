/**
 * A reanalysis backfill as jobs: one ingest job per year on the ingest queue
 * (the same processor as every ingest: download through the HTTP source,
 * read, publish the year atomically). The id is `reanalysis@<year>`, so any
 * number of operators and workers on any number of machines share the work
 * and a year is enqueued once; a year already published is skipped unless
 * forced. A worker killed mid-year publishes nothing for it: BullMQ's stalled
 * check hands the job to another worker, which starts the year again
 * (completed downloads are kept).
 */
import { manifestKey } from '../../tiles/manifest-file.js';
import { tileStorage } from '../../tiles/storage/open.js';
import { isSeamOnly } from '../../ingest/products/reanalysis/seam.js';
import type { JobsConfig } from '../config.js';
import { JobsConfigError } from '../config.js';
import { configuredIngestJob, ingestJobId } from '../ingest-job.js';
import type { IngestJobData } from '../job-types.js';

export const BACKFILL_PRODUCT = 'reanalysis';
export type BackfillSource = 'era5' | '20crv3';
/** ERA5 starts in 1940; before it the 20th Century Reanalysis (docs/history.md). */
export const ERA5_FIRST_YEAR = 1940;
const DEFAULT_MODEL: Record<BackfillSource, string> = { era5: 'ERA5', '20crv3': '20CRv3' };

/** `auto`: ERA5 from 1940, 20CRv3 before. */
export function sourceForYear(year: number, pick: BackfillSource | 'auto'): BackfillSource {
  return pick === 'auto' ? (year >= ERA5_FIRST_YEAR ? 'era5' : '20crv3') : pick;
}

export function backfillJobId(year: number): string {
  return ingestJobId(BACKFILL_PRODUCT, String(year));
}

/**
 * Whether the year's store has a manifest in the root's tile storage (a directory or a bucket), other
 * than one published from the steps the next year's source brings across the boundary alone (the
 * 1939/1940 seam, ingest/products/reanalysis/seam.ts): the year's own files are still to come.
 */
export async function isYearPublished(root: string, year: number): Promise<boolean> {
  const bytes = await tileStorage(root).get(manifestKey(`${BACKFILL_PRODUCT}/${year}`));
  if (bytes === null) return false;
  const times = (JSON.parse(new TextDecoder().decode(bytes)) as { times?: string[] }).times ?? [];
  return !isSeamOnly(year, times.map((t) => Date.parse(t)));
}

/** The job of one year from the configured source's URL templates (`{yyyy}` = the year). */
export function backfillJob(root: string, config: JobsConfig, year: number, source: BackfillSource): { id: string; data: IngestJobData } {
  const b = config.backfill[source];
  if (!b) throw new JobsConfigError(`no backfill source '${source}' in ${config.path ?? 'the built-in jobs config'}: add "backfill": {"${source}": {"source": {"kind": "http", "urls": [...]}}} (docs/history.md)`);
  const { data } = configuredIngestJob(root, BACKFILL_PRODUCT, { model: b.model ?? DEFAULT_MODEL[source], source: b.source }, {
    run: new Date(Date.UTC(year, 0, 1)),
    now: new Date(),
    trigger: 'operator',
  });
  return { id: backfillJobId(year), data };
}
