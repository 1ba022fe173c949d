/**
 * The storage could not answer in time (a bucket slow, down or unreachable):
 * not the same as "absent". A TileError, so the API answers it 503 like the
 * store's other coded errors (api/tile-errors.ts) and the CLI exits 1.
 */
import { TileError } from '../errors.js';

export class StorageUnavailable extends TileError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('STORAGE_UNAVAILABLE', message);
    this.name = 'StorageUnavailable';
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}
