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

/**
 * How a text is written into the markup: escapeHtml, or (./body.ts) the
 * identity where every text of the view is known to hold none of the
 * characters escapeHtml replaces, which then writes the same markup.
 */
export type TextOf = (s: string) => string;

const span = (text: TextOf, cls: string, content: string, title?: string) =>
  `<span class="${cls}"${title !== undefined ? ` title="${text(title)}"` : ''}>${text(content)}</span>`;

/** The sample-data notice: fixed text, made once. */
const SAMPLE = span(escapeHtml, 'sample notice', 'dati di esempio', 'valori dimostrativi, non una previsione reale');

/**
 * Markup of the weather box. Each row is a line of items in the order they
 * are kept: the style (./style.ts) lets the ones that do not fit the width
 * wrap onto a hidden line, whole, from the end. So the place and the sample
 * notice come first and stay; the time of the forecast, the trend, wind and
 * humidity give way first on a narrow box.
 */
export function boxMarkup(v: WidgetView, variant: WidgetVariant, theme: WidgetTheme, text: TextOf = escapeHtml): string {
  const cond = text(v.conditionIt);
  const arrow = v.windArrowDeg === null ? '' : arrowSvg(v.windArrowDeg);
  const name = span(text, 'name t', v.nameShown, v.name ?? 'coordinate del punto');
  // The compact row stacks the coordinates (two short lines instead of one long one), so they and the sample notice fit 200 px.
  const compactName = v.coordinates === null ? name : `<span class="name t coords" title="coordinate del punto"><span>${text(v.coordinates[0])}</span> <span>${text(v.coordinates[1])}</span></span>`;
  const wind = `<span class="wind" title="vento">${arrow}${text(v.wind)}</span>`;
  const hum = span(text, 'hum', `umidità ${v.humidity}`);
  const trend = v.trend === null ? '' : span(text, 'trend', v.trend, 'tendenza della temperatura nelle ultime 3 ore');
  const sample = v.sample ? SAMPLE : '';
  const updated = span(text, 'upd muted', v.updated, v.updatedTitle);
  const label = `Meteo ${text(v.name ?? v.nameShown)}`;
  if (variant === 'compact') {
    return (
      `<div class="mp compact ${theme}" lang="it" role="group" aria-label="${label}">` +
      `<span class="lead">${compactName}${sample}</span><span class="now">${iconSvg(v.icon, cond, 20)}${span(text, 'temp', v.temperature)}</span>` +
      `${hum}${wind}${trend}${updated}</div>`
    );
  }
  return (
    `<div class="mp card ${theme}" lang="it" role="group" aria-label="${label}">` +
    `<div class="row top">${name}${span(text, 'cond muted', v.conditionIt)}</div>` +
    `<div class="main">${iconSvg(v.icon, cond, 34)}${span(text, 'temp', v.temperature)}</div>` +
    `<div class="row">${hum}${wind}</div>` +
    `<div class="row">${trend}</div>` +
    `<div class="row foot">${sample}${updated}</div></div>`
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
