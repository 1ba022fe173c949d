/**
 * A non-2xx answer turned into a SourceError carrying what the server said:
 * its status, its Retry-After, and its own explanation read from the body
 * (an RFC 9457 problem document `{title, detail}` as the ADS/CDS send, a
 * `{message}` or `{error}` JSON, a bare JSON string, an S3 `<Error><Message>`, an HTML title or
 * the first line of plain text), so a refused request fails with the reason
 * the provider gave.
 */
import { parseRetryAfter } from './retry.js';
import { statusError, type SourceError } from './source-error.js';

/** Longest explanation quoted into an error message. */
const MAX_DETAIL = 300;

/** The server's explanation in a response body, or '' when it gives none we can read. */
export function explanation(body: string): string {
  const text = body.trim();
  if (!text) return '';
  try {
    const parsed = JSON.parse(text) as unknown;
    // RAPyDo back ends (MeteoHub) answer an error as a bare JSON string.
    if (typeof parsed === 'string') return clip(parsed);
    const j = (parsed ?? {}) as Record<string, unknown>;
    const parts = [j.title, j.detail, j.message, typeof j.error === 'string' ? j.error : (j.error as { message?: unknown } | undefined)?.message]
      .filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    return clip([...new Set(parts)].join(': '));
  } catch {
    // not JSON
  }
  const xml = /<Message>([^<]*)<\/Message>/i.exec(text) ?? /<title>([^<]*)<\/title>/i.exec(text);
  if (xml) return clip(xml[1]!);
  if (text.startsWith('<')) return '';
  return clip(text.split(/\r?\n/)[0]!);
}

function clip(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_DETAIL ? `${t.slice(0, MAX_DETAIL)}…` : t;
}

/** Reads (a bounded part of) the refused response and builds its error; `redact` hides secrets the body might echo. */
export async function refusal(url: string, res: Response, notFound: 'retry' | 'fail', redact: (s: string) => string = (s) => s): Promise<SourceError> {
  const body = await readSome(res, 64 * 1024).catch(() => '');
  const detail = redact(explanation(body));
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  return statusError(url, res.status, notFound, { ...(detail ? { detail } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
}

/** At most `limit` bytes of the body as text; the rest is not waited for. */
async function readSome(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  try {
    while (n < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      n += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
}
