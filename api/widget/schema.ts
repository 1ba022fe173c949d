/**
 * widget.php's query (interface spec 4.2): the point parameters and their
 * bounds are weather.php's own schema (picked, not copied), plus the
 * widget's presentation parameters.
 */
import { Type, type Static } from '@sinclair/typebox';
import { WeatherQuerySchema } from '../weather/schema.js';

export const WIDGET_MODES = ['js', 'iframe'] as const;
export const WIDGET_VARIANTS = ['card', 'compact'] as const;
export const WIDGET_THEMES = ['auto', 'light', 'dark'] as const;
export type WidgetMode = (typeof WIDGET_MODES)[number];
export type WidgetVariant = (typeof WIDGET_VARIANTS)[number];
export type WidgetTheme = (typeof WIDGET_THEMES)[number];

/**
 * Longest `name` accepted, characters. Longer labels are refused (400); the
 * box itself shows at most NAME_SHOWN_MAX of them (./view.ts).
 */
export const NAME_MAX = 500;

const enumOf = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description: `${description} (default ${values[0]})` });

export const WidgetQuerySchema = Type.Composite([
  Type.Pick(WeatherQuerySchema, ['lat', 'lon', 'alt']),
  Type.Object({
    key: Type.Optional(Type.String({ maxLength: 200, description: 'API key (or the X-API-Key header)' })),
    mode: Type.Optional(enumOf(WIDGET_MODES, 'js: a script drawing the box where its tag stands; iframe: a complete HTML page; absent: iframe when the browser loads a frame (Sec-Fetch-Dest), else js')),
    variant: Type.Optional(enumOf(WIDGET_VARIANTS, 'card: 120 px high, 280 px wide or its column\'s width if narrower; compact: one row 32 px high, as wide as its content up to 760 px or its column')),
    theme: Type.Optional(enumOf(WIDGET_THEMES, "auto follows the viewer's prefers-color-scheme")),
    name: Type.Optional(Type.String({ maxLength: NAME_MAX, description: 'place label shown in the box (text, never markup)' })),
  }),
]);
export type WidgetQuery = Static<typeof WidgetQuerySchema>;

/** The one request header the box reads: without `mode`, what the browser is loading picks it. */
export const WidgetHeadersSchema = Type.Object({
  'sec-fetch-dest': Type.Optional(Type.String({ description: 'sent by browsers: `iframe` (or `frame`) without mode= answers the HTML page; `script` in mode=js sends a refusal as 200 (X-Meteopunto-Status)' })),
});

/** The presentation a request asks for, from its raw query (used for refusals too, where validation failed). */
export interface Presentation {
  mode: WidgetMode;
  variant: WidgetVariant;
  theme: WidgetTheme;
}

function pick<T extends string>(values: readonly T[], raw: unknown): T | undefined {
  return typeof raw === 'string' && (values as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

/**
 * Mode, variant and theme of a request whatever else is wrong with it. An
 * invalid or absent `mode` falls back to what the browser says it is loading
 * (Sec-Fetch-Dest: iframe → an HTML page), else js.
 */
export function presentationOf(query: unknown, fetchDest: string | undefined): Presentation {
  const q = (query ?? {}) as Record<string, unknown>;
  return {
    mode: pick(WIDGET_MODES, q.mode) ?? (fetchDest === 'iframe' || fetchDest === 'frame' ? 'iframe' : 'js'),
    variant: pick(WIDGET_VARIANTS, q.variant) ?? 'card',
    theme: pick(WIDGET_THEMES, q.theme) ?? 'auto',
  };
}
