/**
 * The box's stylesheets, one per mode, variant and theme, each built once:
 * no request builds CSS. Colours are CSS variables per theme; `auto` takes
 * the dark ones under `prefers-color-scheme: dark`.
 * Text colours meet WCAG 2.x AA (contrast ≥ 4.5:1) on their background in
 * both themes; the browser test measures it on the rendered box.
 *
 * Sizes: the height is fixed per variant and the width follows the
 * container up to a maximum (the card 120 px high, up to 280 px wide; the
 * compact row 32 px high, as wide as its content up to 760 px), so the box
 * fits any column without a script and an iframe can be `width:100%`.
 *
 * What gives way on a narrow box: each row is a flex line that wraps, one
 * line high, overflow hidden. An item that does not fit moves whole onto the
 * next line, out of sight, and the items after it follow: never half an
 * item. The markup (./markup.ts) puts the items in the order they are kept.
 * The place name alone may end in an ellipsis, when it is wider than the
 * whole box.
 */
import type { WidgetMode, WidgetTheme, WidgetVariant } from './schema.js';

export const CARD_SIZE = { maxWidth: 280, height: 120 } as const;
export const COMPACT_SIZE = { maxWidth: 760, height: 32 } as const;

/** Theme colours (hex), named for what they paint. */
export interface Palette {
  bg: string;
  border: string;
  text: string;
  muted: string;
  notice: string;
  sun: string;
  moon: string;
  cloud: string;
  rain: string;
  snow: string;
  bolt: string;
}

export const PALETTES = {
  light: {
    bg: '#ffffff', border: '#c5ced8', text: '#17212b', muted: '#4a5563', notice: '#8a4500',
    sun: '#e08a00', moon: '#7c8796', cloud: '#a3b0bf', rain: '#2563eb', snow: '#6b7a8c', bolt: '#c98a00',
  },
  dark: {
    bg: '#15202b', border: '#3a4a5c', text: '#f1f5f9', muted: '#b9c5d3', notice: '#fcd34d',
    sun: '#fbbf24', moon: '#e2e8f0', cloud: '#8796a8', rain: '#60a5fa', snow: '#e2e8f0', bolt: '#facc15',
  },
} as const satisfies Record<Exclude<WidgetTheme, 'auto'>, Palette>;

function vars(p: Palette): string {
  return Object.entries(p).map(([k, v]) => `--${k}:${v}`).join(';');
}

const FONT = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif';

const HOST_CSS = {
  // js mode: the shadow host takes nothing from the page (important rules of the shadow tree win over the page's).
  js: ':host{all:initial!important;display:inline-block!important;vertical-align:middle!important;max-width:100%!important}',
  // iframe mode: the document is the box.
  iframe: 'html,body{margin:0;padding:0;background:transparent}',
} as const satisfies Record<WidgetMode, string>;

const THEME_CSS = {
  light: `.mp{${vars(PALETTES.light)}}`,
  dark: `.mp{${vars(PALETTES.dark)}}`,
  auto: `.mp{${vars(PALETTES.light)}}@media (prefers-color-scheme:dark){.mp{${vars(PALETTES.dark)}}}`,
} as const satisfies Record<WidgetTheme, string>;

const COMMON_CSS = [
  `.mp{box-sizing:border-box;background:var(--bg);color:var(--text);border:1px solid var(--border);border-radius:8px;font:13px/1.25 ${FONT};overflow:hidden;text-align:left;-webkit-text-size-adjust:100%}`,
  '.mp *{box-sizing:border-box;margin:0;padding:0;color:inherit;font:inherit}',
  '.mp .t{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}',
  '.mp .muted{color:var(--muted)}.mp .notice{color:var(--notice);font-weight:600}',
  '.mp .temp{font-weight:700}.mp .name{font-weight:700;min-width:0;flex:0 1 auto}',
  '.sun{fill:var(--sun)}.ray{stroke:var(--sun);stroke-width:2;stroke-linecap:round;fill:none}.moon{fill:var(--moon)}.cloud{fill:var(--cloud)}',
  '.rain{stroke:var(--rain);stroke-width:2;stroke-linecap:round;fill:none}.snow{stroke:var(--snow);fill:var(--snow);stroke-width:1.6;stroke-linecap:round}',
  '.bolt{fill:var(--bolt)}.fog{stroke:var(--cloud);stroke-width:2.2;stroke-linecap:round;fill:none}.mark{stroke:var(--text);stroke-width:2;fill:none;stroke-linecap:round}.warn{fill:#f2a900}.warnmark{stroke:#17212b;stroke-width:2.4;fill:none;stroke-linecap:round}',
  '.arrow{fill:var(--text);vertical-align:-1px;margin-right:3px}.icon{flex:none;display:block}',
].join('');

const VARIANT_CSS = {
  // card: rows of 16 + 34 + 15 + 15 + 14 px, 2 px apart, inside 7 px padding and a 1 px border = 118 px
  card: [
    `.card{width:${CARD_SIZE.maxWidth}px;max-width:100%;height:${CARD_SIZE.height}px;padding:7px 10px;display:flex;flex-direction:column;gap:2px}`,
    // A row: one line high; what does not fit wraps onto the hidden next line (see above).
    '.card .row{display:flex;flex-wrap:wrap;column-gap:12px;row-gap:0;overflow:hidden;font-size:12px;line-height:15px;height:15px}.card .row > *{flex:none;height:15px}',
    '.card .top{column-gap:8px;justify-content:space-between;font-size:13px;line-height:16px;height:16px}.card .top > *{height:16px}.card .top > .name{flex:0 1 auto}',
    '.card .main{display:flex;align-items:center;gap:8px;height:34px}.card .main .temp{font-size:26px;line-height:30px;flex:none}',
    '.card .foot{justify-content:space-between;column-gap:6px;font-size:11.5px;line-height:14px;height:14px}.card .foot > *{height:14px}',
    '.card.err{justify-content:center;gap:4px}.card.err .head{display:flex;align-items:center;gap:8px;font-weight:700}.card.err .why{font-size:12.5px;line-height:16px;white-space:normal}',
  ].join(''),
  // compact: one line of 30 px inside the 1 px border; the same wrapping as the card's rows.
  compact: [
    `.compact{display:flex;align-items:center;column-gap:8px;row-gap:0;height:${COMPACT_SIZE.height}px;max-width:min(${COMPACT_SIZE.maxWidth}px,100%);width:max-content;padding:0 10px;font-size:12px;white-space:nowrap}`,
    '.compact:not(.err){flex-wrap:wrap}.compact:not(.err) > span{flex:none;display:flex;align-items:center;height:30px;line-height:30px}.compact .now{gap:6px}',
    '.compact .coords{display:flex;flex-direction:column;justify-content:center;font-size:11px;line-height:13px}',
    '.compact .lead{gap:8px}.compact:not(.err) > .lead{flex:0 1 auto;min-width:0}.compact .temp{font-size:14px}.compact .sample{flex:none}',
    '.compact.err > span{flex:none}.compact.err .why{flex:0 1 auto}',
  ].join(''),
} as const satisfies Record<WidgetVariant, string>;

/**
 * The stylesheet of one mode, variant and theme: only the rules that box
 * uses (smaller answers), built once per combination.
 */
const SHEETS = new Map<string, string>();
export function widgetCss(mode: WidgetMode, variant: WidgetVariant, theme: WidgetTheme): string {
  const k = `${mode}|${variant}|${theme}`;
  let css = SHEETS.get(k);
  if (css === undefined) SHEETS.set(k, (css = HOST_CSS[mode] + THEME_CSS[theme] + COMMON_CSS + VARIANT_CSS[variant]));
  return css;
}
