/**
 * The bucket form of `METEOPUNTO_TILES`, `s3://bucket/prefix`, and the
 * bucket's endpoint `AWS_ENDPOINT_URL`, parsed and checked: shared by the
 * start-up check (./environment.ts), which every command runs before
 * anything else, and the location (./tiles-location.ts).
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

/** Why a `METEOPUNTO_TILES` value is neither a directory nor a valid bucket URL, or null. */
export function tilesProblem(raw: string): string | null {
  if (isBucketUrl(raw)) {
    const parsed = parseBucketUrl(raw);
    return 'problem' in parsed ? parsed.problem : null;
  }
  // 's3:/bucket', 'gs://bucket', 'https://…': meant as a URL, and a directory of that name is never what was meant.
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\//.test(raw.trim())) return 'not a directory, and the only URL form is s3://bucket/prefix (an S3-compatible bucket)';
  return null;
}

/**
 * Why an `AWS_ENDPOINT_URL` value cannot be an S3 endpoint, or null: it must
 * be an absolute http:// or https:// URL of a host, without credentials
 * (they go in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY), query or fragment.
 */
export function endpointProblem(raw: string): string | null {
  const expected = 'expected http(s)://host[:port], e.g. https://minio.example:9000';
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return `not a URL (${expected})`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `'${url.protocol}' is not http: or https: (${expected})`;
  if (url.hostname === '') return `no host (${expected})`;
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not used by the S3 client: give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
  if (url.search !== '' || url.hash !== '') return `a query or fragment has no place in an endpoint (${expected})`;
  return null;
}
