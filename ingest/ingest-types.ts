/** Contract of an ingest run, shared by the CLI (`meteopunto ingest`) and the BullMQ processor (jobs/). */
import type { Domain } from '../config/domain.js';

export interface IngestProgress {
  /** 'read' | 'derive' | 'write' | 'publish' */
  stage: string;
  /** 0..1 over the whole run. */
  fraction: number;
  message?: string;
}

export interface IngestRequest {
  /** Data directory ($METEOPUNTO_DATA). */
  root: string;
  /** Product name: 'nwp', 'dem', ... (ingest/products/registry.ts). */
  product: string;
  /** Local files to read (already downloaded). */
  files: string[];
  onProgress?: (p: IngestProgress) => void;
  /** Aborts between stages; a half-written version is never published. */
  signal?: AbortSignal;
  /** Crop domain; default METEOPUNTO_DOMAIN (config/domain.ts). */
  domain?: Domain;
  /** Ingest gate checks to let through for this ingest, by name (ingest/gate/check.ts); recorded in the manifest. */
  allow?: string[];
  /**
   * Publish even when the run is older than the live one of the same model (an operator's override: the newer run
   * is broken); recorded in the manifest's source (tiles/write/publish.ts).
   */
  allowOlderRun?: boolean;
  /** Extra provenance for the manifest (model, run). */
  source?: { model?: string; run?: string; sample?: boolean; note?: string };
  /**
   * false: a reanalysis is read whole even when its files could be staged one
   * by one (ingest/products/reanalysis/streamed.ts); both give the same stores.
   */
  stream?: boolean;
}

export interface IngestResult {
  product: string;
  version: string;
  /** First and last valid time (ISO 8601 UTC); absent for static products (dem). */
  from?: string;
  to?: string;
  times: number;
  variables: string[];
  published: string;
}

/**
 * Input a product cannot use (no variable it knows, grids that do not match,
 * unknown product). Like ReadError, it is permanent: retrying will not help.
 */
export class IngestError extends Error {
  readonly code = 'INGEST_ERROR';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IngestError';
  }
}
