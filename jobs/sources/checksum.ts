/**
 * Published checksums: a sidecar file in `sha256sum`/`md5sum` format
 * (`<hex>  <name>` lines) or a bare hex digest. The digest of the bytes as
 * served (before decompression) is compared with it.
 */
import type { ChecksumAlgorithm } from '../job-types.js';

const HEX_LENGTH: Record<ChecksumAlgorithm, number> = { md5: 32, sha256: 64, sha512: 128 };

/**
 * The expected digest for `fileName` from a sidecar's text: the line naming
 * the file when there are several, else the only digest. Lowercase hex.
 */
export function parseChecksumFile(text: string, fileName: string, algorithm: ChecksumAlgorithm): string {
  const want = HEX_LENGTH[algorithm];
  const entries: { hex: string; name?: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([0-9a-fA-F]+)(?:\s+\*?(.+?))?\s*$/.exec(line);
    if (m && m[1]!.length === want) entries.push({ hex: m[1]!.toLowerCase(), ...(m[2] ? { name: m[2] } : {}) });
  }
  const named = entries.find((e) => e.name !== undefined && (e.name === fileName || e.name.endsWith(`/${fileName}`)));
  if (named) return named.hex;
  if (entries.length === 1) return entries[0]!.hex;
  throw new Error(entries.length === 0 ? `no ${algorithm} digest in checksum file` : `checksum file lists ${entries.length} digests, none for ${fileName}`);
}
