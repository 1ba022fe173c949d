/**
 * The storage could not answer in time (a bucket slow, down or unreachable):
 * not the same as "absent". The API answers 503 for it (api/plugins/errors.ts),
 * the CLI exits 1 naming the store.
 */
export class StorageUnavailable extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
  override name = 'StorageUnavailable';
}
