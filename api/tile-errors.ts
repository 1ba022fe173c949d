/**
 * The API's one mapping of a TileError (a lookup the published data cannot
 * answer) to an ApiError, used by weather.php's service with the request's
 * context and by the error handler for any that reach it.
 *
 * - PRODUCT_NOT_PUBLISHED → 503 DATA_NOT_AVAILABLE (nothing ingested yet).
 * - OUTSIDE_GRID → 404 NOT_FOUND (valid coordinates the product does not cover).
 * - TIME_OUT_OF_RANGE:
 *   - for current conditions (no `time=`) → 503 DATA_NOT_AVAILABLE: the
 *     client asked nothing wrong, the published forecast no longer covers
 *     "now" (stale data, a server-side condition that a new ingest fixes);
 *   - for an explicit `time=`, or when the context is unknown → 404
 *     NOT_FOUND naming the covered range.
 */
import { ApiError } from './errors.js';
import { TileError } from '../tiles/errors.js';

export function tileErrorToApi(err: TileError, ctx: { timeRequested: boolean } = { timeRequested: true }): ApiError {
  const product = err.detail.product || 'the';
  const range = err.detail.from && err.detail.to ? ` (${product} data covers ${err.detail.from} to ${err.detail.to})` : '';
  switch (err.code) {
    case 'PRODUCT_NOT_PUBLISHED':
      return new ApiError('DATA_NOT_AVAILABLE', `No ${product} data has been published yet; try again after the next ingest`);
    case 'OUTSIDE_GRID':
      return new ApiError('NOT_FOUND', `No ${product} data at this point: it lies outside the ${product} grid`);
    case 'TIME_OUT_OF_RANGE':
      return ctx.timeRequested
        ? new ApiError('NOT_FOUND', `No data for the requested time${range}`)
        : new ApiError('DATA_NOT_AVAILABLE', `The published forecast does not cover the current time${range}; a newer one has not been ingested yet`);
    case 'STORAGE_UNAVAILABLE':
      // The bucket's name and the cause are for the log, not the client.
      return new ApiError('DATA_NOT_AVAILABLE', 'The tile storage did not answer in time; try again shortly');
  }
}

/** Map a TileError, return anything else unchanged (for rethrowing). */
export function mapTileError(err: unknown, ctx: { timeRequested: boolean }): unknown {
  return err instanceof TileError ? tileErrorToApi(err, ctx) : err;
}
