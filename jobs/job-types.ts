/**
 * Payloads and results of the jobs on the ingest and schedule queues
 * (config/queues.ts). Job data is self-contained: the source is resolved
 * from configuration when the job is enqueued, so the dashboard shows exactly
 * what a job fetches and a worker needs no product configuration to run it.
 */
import type { IngestResult } from '../ingest/ingest-types.js';

export type Decompress = 'bzip2' | 'none';
export type ChecksumAlgorithm = 'sha256' | 'sha512' | 'md5';

export interface HttpFileSpec {
  url: string;
  /** URL of a published checksum file (`sha256sum` format or a bare hex digest). */
  checksumUrl?: string;
  /** Local file name after download (and decompression). */
  name: string;
  decompress: Decompress;
}

export interface HttpFetchOptions {
  /** Per file, checked on the bytes received and on the decompressed bytes. */
  maxBytes: number;
  headersMs: number;
  idleMs: number;
  totalMs: number;
  /** Concurrent downloads per job. */
  parallel: number;
  /** 404: the run is not published yet ('retry', the default) or the URL is wrong ('fail'). */
  notFound: 'retry' | 'fail';
  checksumAlgorithm: ChecksumAlgorithm;
  /**
   * One job attempt's whole fetch, retries in place included (ms); past it
   * the attempt fails and BullMQ retries the job later. Absent in jobs queued
   * by older versions: jobs/sources/retry.ts fills the defaults.
   */
  deadlineMs?: number;
  /** Delays of the retries in place (jobs/sources/retry.ts). */
  retry?: { firstDelayMs: number; maxDelayMs: number };
  /** HTTP basic authentication: the environment variables holding the login on each worker (never the login itself). */
  basicAuth?: { userEnv: string; passwordEnv: string };
}

/** One request of an ADS/CDS job. */
export interface AdsRequestSpec {
  /** Names the request: its remote job id is kept under this key in the job data (`remote`). */
  key: string;
  /** The dataset request with the run filled in. */
  request: Record<string, unknown>;
  /** Local name of its result (a ZIP is unpacked into a folder named after it). */
  fileName: string;
}

/** An Atmosphere / Climate Data Store retrieval (jobs/sources/ads.ts); the key itself is read from `keyEnv` by the worker. */
export interface AdsSourceSpec {
  kind: 'ads';
  api: string;
  dataset: string;
  /** Built by jobs/sources/ads-requests.ts: per month when split, the invariant variables apart. */
  requests: AdsRequestSpec[];
  /** Environment variable holding the personal API key. */
  keyEnv: string;
  /** Longest pause between two looks at a remote job. */
  pollMs: number;
  /** `deadlineMs` is the configured maxWaitSeconds; `parallel` the requests followed at once. */
  options: HttpFetchOptions;
}

/** Copernicus Marine original files (jobs/sources/copernicus-marine.ts), found when the job runs. */
export interface MarineSourceSpec {
  kind: 'copernicus-marine';
  /** STAC root, e.g. https://stac.marine.copernicus.eu/metadata. */
  stac: string;
  datasets: { product: string; dataset: string; daysBack: number; daysAhead: number; latest?: number }[];
  /** The run (ISO 8601): the window of file dates is counted from its day. */
  run: string;
  options: HttpFetchOptions;
}

export type SourceSpec =
  | { kind: 'http'; files: HttpFileSpec[]; options: HttpFetchOptions }
  | AdsSourceSpec
  | MarineSourceSpec
  /** Absolute inbox directory; files are claimed when the job runs. */
  | { kind: 'inbox'; dir: string; settleMs: number }
  /** Files already on this machine (operator `jobs enqueue --file`). */
  | { kind: 'local'; paths: string[] };

export interface IngestJobData {
  product: string;
  /** Model run (ISO 8601 UTC) the files belong to, when known. */
  run?: string;
  model?: string;
  source: SourceSpec;
  trigger: 'schedule' | 'operator';
  /** Ingest gate checks to let through for this job (`jobs enqueue --allow`), recorded in the manifest (docs/gate.md). */
  allow?: string[];
  /**
   * Ids of the provider-side jobs this job started (ADS/CDS jobID by request
   * key), written as soon as each is known so that a retry, or another worker
   * after a crash, re-attaches to the running job instead of submitting anew.
   */
  remote?: Record<string, string>;
  /** Set when this job fetches a product's fallback source: why the primary was not used (jobs/resolve-job.ts). */
  fallback?: string;
}

export type IngestJobResult =
  | (IngestResult & { files: string[]; fetchedBytes: number })
  /** Nothing to do (an empty inbox), or nothing published (an older run than the live one: the reason). */
  | { product: string; nothingToDo: string };

export interface TickJobData {
  product: string;
}

export interface TickJobResult {
  product: string;
  /** The scheduled time of this tick (ISO 8601). */
  tick: string;
  /** Id of the ingest job the tick asked for. */
  jobId?: string;
  /** True when that ingest job already existed (another tick, an operator): nothing was added. */
  duplicate?: boolean;
  skipped?: string;
  /** The product's fallback source was enqueued, and why. */
  fallback?: string;
}

/** Progress reported through job.updateProgress. */
export interface JobProgressInfo {
  /** 'fetch' | 'read' | 'derive' | 'write' | 'publish' */
  stage: string;
  /** 0..1 over the whole job. */
  fraction: number;
  message?: string;
}

/** Abort reason the worker gives running jobs when its shutdown grace is over: hand the job back, do not fail it. */
export const SHUTDOWN_REASON = 'worker shutdown';
