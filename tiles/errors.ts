/**
 * The tile store's coded errors: what a reader throws when a product, a point
 * or a time is not there. The API maps the codes to HTTP statuses
 * (api/plugins/errors.ts).
 */
/** Codes the tile layer throws. */
export type TileErrorCode =
  | 'PRODUCT_NOT_PUBLISHED' // no current.json yet → 503
  | 'OUTSIDE_GRID' // point not covered by the product's grid → 404
  | 'TIME_OUT_OF_RANGE' // asked time outside the store's time axis → 404 with the covered range
  | 'STORAGE_UNAVAILABLE'; // the tile storage (a bucket) did not answer in time → 503

export class TileError extends Error {
  constructor(
    readonly code: TileErrorCode,
    message: string,
    readonly detail: { product: string; from?: string; to?: string } = { product: '' },
  ) {
    super(message);
    this.name = 'TileError';
  }
}
