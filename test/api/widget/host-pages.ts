/**
 * The embedding side of the browser tests: a second origin on 127.0.0.1 (its
 * own port) serving host pages that embed widget.php, and the snippets a
 * site owner would paste (docs/widget.md).
 */
import { createServer, type Server } from 'node:http';

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

/** The iframe embed, at the documented size of the variant. */
export function iframeSlot(id: string, src: string, variant: 'card' | 'compact' = 'card'): string {
  const [w, h] = variant === 'card' ? [280, 120] : [760, 32];
  return `<div class="slot" id="${id}"><iframe src="${attr(src)}" width="${w}" height="${h}" style="border:0" title="Meteo"></iframe></div>`;
}
