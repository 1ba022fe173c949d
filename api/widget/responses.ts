/**
 * widget.php's answers for the API document and Fastify: the box as an HTML
 * page (mode=iframe, `text/html`) or a script (mode=js, `text/javascript`),
 * refusals drawn in the same box with their status, and 405 (another method)
 * in the API's JSON error shape. The 200 examples are the real renderer's
 * output for the weather.php example (../weather/example.ts).
 */
import { errorResponseSchema } from '../errors.js';
import { methodNotAllowedResponse } from '../weather/schema.js';
import { WEATHER_EXAMPLE } from '../weather/example.js';
import type { FreeFields } from '../fields/base/schema.js';
import { CONTENT_TYPE, renderWidget } from './render.js';
import { widgetView } from './view.js';
import type { WidgetMode } from './schema.js';

/** The media types of the box, as CONTENT_TYPE sends them without the charset parameter. */
export const WIDGET_MEDIA_TYPES: Record<WidgetMode, string> = {
  iframe: CONTENT_TYPE.iframe.split(';')[0]!,
  js: CONTENT_TYPE.js.split(';')[0]!,
};

function example(mode: WidgetMode): string {
  const place = { lat: 40.8, lon: 14.2, name: 'Napoli', runIso: '2026-11-26T06:00:00Z' };
  return renderWidget(widgetView(WEATHER_EXAMPLE as unknown as FreeFields, place), { mode, variant: 'card', theme: 'auto' });
}

function box(description: string, examples: boolean) {
  const media = (mode: WidgetMode, what: string) => ({
    schema: { type: 'string', description: what },
    ...(examples ? { example: example(mode) } : {}),
  });
  return {
    description,
    headers: {
      'X-Meteopunto-Error': { type: 'string', description: 'on a refusal: its error code (INVALID_PARAMETER, MISSING_KEY, ...)' },
      'X-Meteopunto-Status': { type: 'string', description: 'on a refusal sent as 200 to a script loader (mode=js, Sec-Fetch-Dest: script): the real status' },
    },
    content: {
      [WIDGET_MEDIA_TYPES.iframe]: media('iframe', 'mode=iframe (or no mode and Sec-Fetch-Dest: iframe): a complete HTML page'),
      [WIDGET_MEDIA_TYPES.js]: media('js', 'mode=js (the default): a script drawing the box where its tag stands'),
    },
  };
}

/** A refusal drawn in the box: the codes its status carries (api/errors.ts). */
function refusal(status: number): ReturnType<typeof box> {
  const codes = String((errorResponseSchema(status) as { description: string }).description).replace(/^error: /, '');
  return box(`${codes}, drawn in the box with the reason in Italian`, false);
}

export const widgetResponses = {
  200: box('the box; also a refusal to a browser loading a script (mode=js, Sec-Fetch-Dest: script), which would not run a script sent with an error status: its status is in X-Meteopunto-Status', true),
  400: refusal(400),
  401: refusal(401),
  403: refusal(403),
  404: refusal(404),
  405: methodNotAllowedResponse(),
  429: refusal(429),
  500: refusal(500),
  503: refusal(503),
};
