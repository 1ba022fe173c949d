/**
 * The embedding side of the browser tests: a second origin on 127.0.0.1 (its
 * own port) serving host pages that embed widget.php, and the snippets a
 * site owner would paste (docs/widget.md).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';

export interface HostServer {
  origin: string;
  /** Publish a page at /<id>; returns its URL. */
  page(id: string, body: string, head?: string): string;
  close(): Promise<void>;
}

export async function startHostServer(): Promise<HostServer> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const html = pages.get((req.url ?? '/').slice(1));
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  const origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    origin,
    page(id, body, head = '') {
      pages.set(id, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${id}</title>${head}</head><body>${body}</body></html>`);
      return `${origin}/${id}`;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A widget.php URL. */
export function widgetUrl(api: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return `${api}/api/v1/widget.php?${q.toString()}`;
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The js embed: a script tag in a slot the test can find. */
export function jsSlot(id: string, src: string): string {
  return `<div class="slot" id="${id}"><script src="${attr(src)}"></script></div>`;
}

/**
 * docs/widget.md's iframe snippets by variant, the src left out: the tests
 * embed what the manual tells site owners to paste. `loading="lazy"` is
 * dropped, so that frames below the fold load without scrolling.
 */
const DOCUMENTED_IFRAMES = (() => {
  const md = readFileSync(resolve(import.meta.dirname, '../../../docs/widget.md'), 'utf8');
  const snippets = [...md.matchAll(/```html\n(<iframe [\s\S]*?<\/iframe>)\n```/g)].map((m) => m[1]!.replace(/\s+/g, ' '));
  const compact = snippets.find((t) => t.includes('variant=compact'));
  const card = snippets.find((t) => !t.includes('variant='));
  if (!compact || !card) throw new Error('docs/widget.md: no iframe snippet for the card and the compact row');
  const template = (t: string) => t.replace(/ src="[^"]*"/, ' src="SRC"').replace(' loading="lazy"', '');
  return { card: template(card), compact: template(compact) };
})();

/** The iframe embed exactly as docs/widget.md gives it for the variant. */
export function iframeSlot(id: string, src: string, variant: 'card' | 'compact' = 'card'): string {
  return `<div class="slot" id="${id}">${DOCUMENTED_IFRAMES[variant].replace('"SRC"', `"${attr(src)}"`)}</div>`;
}
