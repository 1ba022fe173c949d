/**
 * Where a secret shows in a text, in any encoding a log line could give it:
 * as written, in another letter case, percent-encoded (also twice), with
 * JSON \u escapes, or inside a base64 (standard or URL-safe, any alignment:
 * an Authorization: Basic header, a logged buffer) or hex token (a logged
 * buffer or digest of the raw bytes). Returns the encodings it was found in.
 */

function percentDecoded(text: string): string {
  let s = text;
  for (let round = 0; round < 3; round++) {
    const next = s.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1');
      }
    });
    if (next === s) break;
    s = next;
  }
  return s;
}

function decodedTokens(text: string, token: RegExp, decode: (t: string) => Buffer, offsets: number): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(token)) {
    for (let o = 0; o < offsets; o++) {
      const b = decode(m[0].slice(o));
      out.push(b.toString('latin1'), b.toString('utf8'));
    }
  }
  return out;
}

export function leaksOf(text: string, secret: string): string[] {
  const found: string[] = [];
  if (text.includes(secret)) found.push('raw');
  if (text.toLowerCase().includes(secret.toLowerCase())) found.push('any case');
  if (percentDecoded(text).includes(secret)) found.push('percent-encoded');
  if (text.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).includes(secret)) found.push('JSON escapes');
  const b64 = decodedTokens(text, /[A-Za-z0-9+/_-]{12,}={0,2}/g, (t) => Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64'), 4);
  if (b64.some((d) => d.includes(secret))) found.push('base64');
  const hex = decodedTokens(text, /[0-9A-Fa-f]{16,}/g, (t) => Buffer.from(t.slice(0, t.length - (t.length % 2)), 'hex'), 2);
  if (hex.some((d) => d.includes(secret))) found.push('hex');
  return [...new Set(found)];
}
