/**
 * The bytes of a served box (a 200 answer of widget.php), as the route sends
 * them: the same text as renderWidget (./render.ts) writes, UTF-8 encoded,
 * in a Buffer whose fixed parts were encoded once.
 *
 * Why: two thirds of a box (2.8 of 4.1 KB) are the same for every load of
 * one mode, variant and theme (the script's code and its stylesheet
 * literal, or the page's head and stylesheet). Sent as a string, Fastify
 * counts its UTF-8 bytes (Buffer.byteLength, a scan of the whole, slower
 * when a character is above U+00FF: a minus sign in the trend) and Node
 * joins it to the head and encodes it into the socket; Node 20's UTF-8
 * writer goes character by character once a string holds one non-ASCII
 * character, and every box holds "umidità" and "°C". Here only the box's
 * markup (about 1.3 KB) is encoded per load, straight into a buffer cut
 * from a slab (../fields/body-slab.ts), and the length is known (docs/benchmarks-journal.md,
 * "widget.php: the box's fixed bytes encoded once").
 *
 * The fixed parts are cut out of the reference renderers' own output
 * (./documents.ts) around a marker, so there is one source for them. The
 * markup skips the escaping scans when no text of the view holds a
 * character any escape would change (PLAIN, below): the static parts of
 * the markup hold none either (test/api/widget/body.test.ts checks both
 * against the reference over every variant, theme, icon and hostile names).
 * Every box weather.php's values can make skips all of this: ./box-bytes.ts
 * writes it from the view; what follows answers the views it gives up on
 * (an icon or arrow angle weather.php never gives).
 */
import { iframeDocument, scriptString, widgetScript } from './documents.js';
import { boxMarkup, escapeHtml } from './markup.js';
import { documentTitle } from './render.js';
import { assembleBody } from '../fields/body-slab.js';
import { boxBytes } from './box-bytes.js';
import { WIDGET_MODES, WIDGET_THEMES, WIDGET_VARIANTS, type Presentation, type WidgetMode, type WidgetTheme, type WidgetVariant } from './schema.js';
import type { WidgetView } from './view.js';

/**
 * Every character escapeHtml replaces (&<>"') or scriptString escapes
 * (\ ' CR LF U+2028 U+2029). A view whose texts hold none is written as it
 * is: escapeHtml would return each text unchanged, and then the markup holds
 * none of them either (its fixed parts do not), so scriptString would only
 * add the quotes. `</script` and `<!--` need a `<`, which no text holds
 * after escapeHtml and every fixed `<` of the markup opens a named tag.
 */
const ESCAPED = /[&<>"'\\\n\r\u2028\u2029]/;

/** The view's texts hold nothing to escape (see ESCAPED). */
export function plainView(v: WidgetView): boolean {
  const c = v.coordinates;
  return !ESCAPED.test(
    `${v.nameShown}${v.name ?? ''}${c === null ? '' : c[0] + c[1]}${v.conditionIt}${v.temperature}${v.humidity}${v.wind}${v.trend ?? ''}${v.updated}${v.updatedTitle}`,
  );
}

const same = (s: string): string => s;

/** Stands for the dynamic parts while the fixed ones are cut out: no character any escape changes. */
const BOX = '\u0000box\u0000';
const TITLE = '\u0000title\u0000';

/** The fixed parts of one presentation's body, around its dynamic ones, encoded. */
type Frame = readonly Buffer[];

function cut(text: string, markers: readonly string[]): Frame {
  const parts: Buffer[] = [];
  let from = 0;
  for (const m of markers) {
    const at = text.indexOf(m, from);
    if (at < 0) throw new Error(`widget body: marker not found in ${text.slice(0, 60)}`);
    parts.push(Buffer.from(text.slice(from, at), 'utf8'));
    from = at + m.length;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return parts;
}

/** Per mode, variant and theme (looked up without building a key string per load). */
const FRAMES = {} as Record<WidgetMode, Record<WidgetVariant, Record<WidgetTheme, Frame>>>;
for (const mode of WIDGET_MODES) {
  FRAMES[mode] = {} as Record<WidgetVariant, Record<WidgetTheme, Frame>>;
  for (const variant of WIDGET_VARIANTS) {
    FRAMES[mode][variant] = {} as Record<WidgetTheme, Frame>;
    for (const theme of WIDGET_THEMES) {
      const p: Presentation = { mode, variant, theme };
      FRAMES[mode][variant][theme] = mode === 'js' ? cut(widgetScript(BOX, p), [BOX]) : cut(iframeDocument(BOX, TITLE, p), [TITLE, BOX]);
    }
  }
}

/** The body of a served box: the bytes of renderWidget(v, p). */
export function servedBody(v: WidgetView, p: Presentation): Buffer {
  // Written from the view (./box-bytes.ts); the reference way below when it gives up.
  const bytes = boxBytes(v, p);
  if (bytes !== undefined) return bytes;
  const frame = FRAMES[p.mode][p.variant][p.theme];
  const plain = plainView(v);
  const box = boxMarkup(v, p.variant, p.theme, plain ? same : escapeHtml);
  if (p.mode === 'iframe') return assembleBody(frame, [documentTitle(v.name), box]);
  // scriptString's literal less its quotes, which the frame holds.
  return assembleBody(frame, [plain ? box : scriptString(box).slice(1, -1)]);
}
