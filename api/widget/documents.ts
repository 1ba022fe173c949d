/**
 * The two forms of a widget response (interface spec 4.2):
 *
 * - iframe: a complete HTML document, no script at all; its CSP allows
 *   nothing but its own inline stylesheet (by hash) and, where the key has
 *   registered origins, only those origins may frame it.
 * - js: a classic script that draws the box right before its own script tag
 *   (document.currentScript), inside an open Shadow DOM so that the page's
 *   CSS and the box's CSS stay apart. It runs inside a function and leaves
 *   no global behind; the markup travels inside the script as a string
 *   literal with quotes, backslashes and line terminators escaped and no
 *   `</script` or `<!--`, so no label can end the script or the string.
 */
import { createHash } from 'node:crypto';
import type { Presentation } from './schema.js';
import { widgetCss } from './style.js';

const CSP_BASE = new Map<string, string>();

/** Content-Security-Policy of an iframe document (its stylesheet by hash); `frameAncestors` absent: any page may frame it. */
export function iframeCsp(p: Presentation, frameAncestors: readonly string[] | undefined): string {
  const css = widgetCss('iframe', p.variant, p.theme);
  let base = CSP_BASE.get(css);
  if (base === undefined) {
    base = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'; base-uri 'none'; form-action 'none'`;
    CSP_BASE.set(css, base);
  }
  return frameAncestors && frameAncestors.length > 0 ? `${base}; frame-ancestors ${frameAncestors.join(' ')}` : base;
}

/** A complete HTML page holding the box. */
export function iframeDocument(boxHtml: string, title: string, p: Presentation): string {
  return (
    '<!doctype html><html lang="it"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">' +
    `<title>${title}</title><style>${widgetCss('iframe', p.variant, p.theme)}</style></head><body>${boxHtml}</body></html>`
  );
}

/**
 * A single-quoted JS string literal of `s`, safe anywhere in a script, even
 * inlined in HTML: quotes, backslashes and line terminators escaped, and no
 * `</script` or `<!--` (the only sequences that end or hide an inline script;
 * labels never bring a `<` at all, markup.ts escapes it). Scans first, copies
 * only when needed: this runs on every load's markup.
 */
export function scriptString(s: string): string {
  let j = s;
  if (RARE.test(j)) {
    j = j.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\r', '\\r');
    j = j.replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029');
  }
  if (HTML_BREAK.test(j)) j = j.replace(HTML_BREAKS, (m) => `\\x3c${m.slice(1)}`);
  return `'${j}'`;
}
const RARE = /[\\'\n\r\u2028\u2029]/;
const HTML_BREAK = /<\/script|<!--/i;
const HTML_BREAKS = /<\/script|<!--/gi;

const STYLE_LITERALS = new Map<string, string>();
function styleLiteral(p: Presentation): string {
  const css = widgetCss('js', p.variant, p.theme);
  let lit = STYLE_LITERALS.get(css);
  if (lit === undefined) STYLE_LITERALS.set(css, (lit = scriptString(css)));
  return lit;
}

/**
 * The js-mode script. `attrs` are data-* attributes set on the host element
 * (status and error code of a refusal), names from a fixed list, values
 * escaped as strings; `warning` is written to the console (refusals).
 */
export function widgetScript(boxHtml: string, p: Presentation, attrs: Readonly<Record<string, string>> = {}, warning?: string): string {
  const setAttrs = Object.entries(attrs).map(([k, v]) => `h.setAttribute(${scriptString(`data-meteopunto-${k}`)},${scriptString(v)});`).join('');
  const warn = warning === undefined ? '' : `if(window.console)console.warn(${scriptString(warning)});`;
  return (
    '/* Meteopunto widget.php (mode=js): draws the weather box where this script tag stands. */\n' +
    '(function(){"use strict";var s=document.currentScript;' +
    warn +
    'if(!s||!s.parentNode)return;' +
    'var h=document.createElement("meteopunto-widget");' +
    setAttrs +
    'var r=h.attachShadow({mode:"open"});' +
    `var st=document.createElement("style");st.textContent=${styleLiteral(p)};` +
    `var b=document.createElement("template");b.innerHTML=${scriptString(boxHtml)};` +
    'r.appendChild(st);r.appendChild(b.content);' +
    's.parentNode.insertBefore(h,s);})();\n'
  );
}
