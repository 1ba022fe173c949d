/**
 * A widget response body and its content type, for a served load or a
 * refusal, in the mode asked for.
 */
import { iframeDocument, widgetScript } from './documents.js';
import { boxMarkup, escapeHtml, refusalMarkup } from './markup.js';
import type { Presentation } from './schema.js';
import type { WidgetView } from './view.js';

/** The iframe document's title: "Meteo" and the place. */
export function documentTitle(name: string | null): string {
  return name === null ? 'Meteo' : `Meteo – ${escapeHtml(name)}`;
}

export const CONTENT_TYPE = { iframe: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8' } as const;

export function renderWidget(v: WidgetView, p: Presentation): string {
  const box = boxMarkup(v, p.variant, p.theme);
  return p.mode === 'iframe' ? iframeDocument(box, documentTitle(v.name), p) : widgetScript(box, p);
}

export interface Refusal {
  status: number;
  code: string;
  /** The API's English message (console, for the page's developer). */
  message: string;
  /** Italian, for the page's visitors. */
  reason: string;
}

export function renderRefusal(r: Refusal, p: Presentation): string {
  const box = refusalMarkup(r.reason, r.status, p.variant, p.theme);
  if (p.mode === 'iframe') return iframeDocument(box, documentTitle(null), p);
  return widgetScript(box, p, { status: String(r.status), error: r.code }, `Meteopunto widget.php: ${r.status} ${r.code}: ${r.message}`);
}
