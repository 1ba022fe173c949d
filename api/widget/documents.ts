/**
 * The two forms of a widget response (interface spec 4.2):
 *
 * - iframe: a complete HTML document, no script at all; its CSP allows
 *   nothing but its own inline stylesheet (by hash) and, where the key has
 *   registered origins, only those origins may frame it.
 * - js: a classic script that draws the box right before its own script tag
 *   (document.currentScript), inside an open Shadow DOM so that the page's
 *   CSS and the box's CSS stay apart. It runs inside a function and leaves
 *   no global behind; the markup travels inside the script as a JSON string
 *   with every `<` and U+2028/2029 escaped, so no label can end the script
 *   or the string whatever it holds.
 */
import { createHash } from 'node:crypto';
import { WIDGET_CSS } from './style.js';

const STYLE_HASH = `'sha256-${createHash('sha256').update(WIDGET_CSS).digest('base64')}'`;

/** Content-Security-Policy of an iframe document; `frameAncestors` absent: any page may frame it. */
export function iframeCsp(frameAncestors: readonly string[] | undefined): string {
  const base = `default-src 'none'; style-src ${STYLE_HASH}; base-uri 'none'; form-action 'none'`;
  return frameAncestors && frameAncestors.length > 0 ? `${base}; frame-ancestors ${frameAncestors.join(' ')}` : base;
}

/** A complete HTML page holding the box. */
export function iframeDocument(boxHtml: string, title: string): string {
  return (
    '<!doctype html><html lang="it"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">' +
    `<title>${title}</title><style>${WIDGET_CSS}</style></head><body>${boxHtml}</body></html>`
  );
}

/**
 * A JSON string literal safe anywhere in a script, even inlined in HTML: no
 * `<` (so no `</script>` and no `<!--`), no raw U+2028/2029. This runs on
 * every load's markup, hence replaceAll on plain strings.
 */
export function scriptString(s: string): string {
  let j = JSON.stringify(s).replaceAll('<', '\\u003c');
  if (j.includes('\u2028')) j = j.replaceAll('\u2028', '\\u2028');
  if (j.includes('\u2029')) j = j.replaceAll('\u2029', '\\u2029');
  return j;
}

const STYLE_LITERAL = scriptString(WIDGET_CSS);

/**
 * The js-mode script. `attrs` are data-* attributes set on the host element
 * (status and error code of a refusal), names from a fixed list, values
 * escaped as strings; `warning` is written to the console (refusals).
 */
export function widgetScript(boxHtml: string, attrs: Readonly<Record<string, string>> = {}, warning?: string): string {
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
    `var st=document.createElement("style");st.textContent=${STYLE_LITERAL};` +
    `var b=document.createElement("template");b.innerHTML=${scriptString(boxHtml)};` +
    'r.appendChild(st);r.appendChild(b.content);' +
    's.parentNode.insertBefore(h,s);})();\n'
  );
}
