/**
 * The bucket form of `METEOPUNTO_TILES`, `s3://bucket/prefix`, parsed and
 * checked: shared by the start-up check (./environment.ts) and the location
 * (./tiles-location.ts).
 */

/** S3 bucket names: 3–63 characters, lower-case letters, digits, '.', '-'. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function isBucketUrl(raw: string): boolean {
  return /^s3:\/\//i.test(raw.trim());
}

/** Bucket and prefix (no leading or trailing '/'), or why the value is not a valid one. */
export function parseBucketUrl(raw: string): { bucket: string; prefix: string } | { problem: string } {
  const m = /^s3:\/\/([^/]*)\/?(.*)$/i.exec(raw.trim());
  const bucket = m?.[1] ?? '';
  const prefix = (m?.[2] ?? '').replace(/\/+$/, '');
  if (!BUCKET.test(bucket)) return { problem: `'${bucket}' is not a valid bucket name (3–63 lower-case letters, digits, '.', '-')` };
  if (prefix !== '' && prefix.split('/').some((p) => p === '' || p === '.' || p === '..')) return { problem: 'the prefix must be path segments without empty, \'.\' or \'..\' parts' };
  return { bucket, prefix };
}
