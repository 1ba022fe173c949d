/**
 * The box as HTML markup, shared by both modes: a weather box from a
 * WidgetView, or a refusal box with its reason. Every text that comes from
 * the request or the data goes through escapeHtml; nothing else is
 * interpolated (icons and classes come from fixed tables).
 */
import { arrowSvg, iconSvg } from './icons.js';
import type { WidgetTheme, WidgetVariant } from './schema.js';
import type { WidgetView } from './view.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value (double- or single-quoted). */
export function escapeHtml(s: string): string {
  return SPECIAL.test(s) ? s.replace(SPECIALS, (c) => HTML_ESCAPES[c]!) : s;
}
const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

const span = (cls: string, text: string, title?: string) =>
  `<span class="${cls}"${title !== undefined ? ` title="${escapeHtml(title)}"` : ''}>${escapeHtml(text)}</span>`;

/** Markup of the weather box. */
export function boxMarkup(v: WidgetView, variant: WidgetVariant, theme: WidgetTheme): string {
  const cond = escapeHtml(v.conditionIt);
  const arrow = v.windArrowDeg === null ? '' : arrowSvg(v.windArrowDeg);
  const name = v.nameShown === null ? '' : span('name t', v.nameShown, v.name ?? undefined);
  const wind = `<span class="wind t" title="vento">${arrow}${escapeHtml(v.wind)}</span>`;
  const trend = v.trend === null ? '' : span('trend t', v.trend, 'tendenza della temperatura nelle ultime 3 ore');
  const sample = v.sample ? span('sample notice', 'dati di esempio', 'valori dimostrativi, non una previsione reale') : '';
  const label = `Meteo${v.name !== null ? ` ${escapeHtml(v.name)}` : ''}`;
  if (variant === 'compact') {
    return (
      `<div class="mp compact ${theme}" lang="it" role="group" aria-label="${label}">${iconSvg(v.icon, cond, 20)}${name}` +
      `${span('temp', v.temperature)}${span('hum', `umidità ${v.humidity}`)}${wind}${trend}${span('upd muted', v.updated)}${sample}</div>`
    );
  }
  return (
    `<div class="mp card ${theme}" lang="it" role="group" aria-label="${label}">` +
    `<div class="top">${name || '<span></span>'}${span('cond t muted', v.conditionIt)}</div>` +
    `<div class="main">${iconSvg(v.icon, cond, 34)}${span('temp', v.temperature)}</div>` +
    `<div class="row">${span('hum', `umidità ${v.humidity}`)}${wind}</div>` +
    `<div class="row">${trend}</div>` +
    `<div class="row foot">${span('upd t muted', v.updated)}${sample}</div></div>`
  );
}

const WARNING = '<svg class="icon" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><path class="warn" d="M16 3l14 25H2z"/><path class="warnmark" d="M16 12v8M16 23.5v.5"/></svg>';

/** Markup of a refusal: the reason in Italian where the box would stand. */
export function refusalMarkup(reason: string, status: number, variant: WidgetVariant, theme: WidgetTheme): string {
  const why = escapeHtml(reason);
  if (variant === 'compact') {
    return `<div class="mp compact err ${theme}" lang="it" role="alert">${WARNING}<span class="temp">Meteo non disponibile</span><span class="why t">${why}</span><span class="muted">(${status})</span></div>`;
  }
  return (
    `<div class="mp card err ${theme}" lang="it" role="alert"><div class="head">${WARNING}<span>Meteo non disponibile</span></div>` +
    `<p class="why">${why}</p><p class="muted">Meteopunto · errore ${status}</p></div>`
  );
}
