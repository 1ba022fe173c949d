/**
 * What the box says, in Italian, from weather.php's Free fields (the base
 * builder's output for the same point, plan and instant): the same rounded
 * values, written the Italian way (decimal comma, U+2212 minus sign as the
 * trend label does), wind from its direction as a cardinal point, the valid
 * time in Europe/Rome. Plain strings: escaping is the markup's job (./markup.ts).
 */
import { WEATHER_CODES } from '../../science/index.js';
import { DECIMALS } from '../weather/precision.js';
import type { FreeFields } from '../fields/base/schema.js';

/** Characters of `name` shown; longer names end with an ellipsis (the whole name stays in the title). */
export const NAME_SHOWN_MAX = 60;

/** The eight Italian cardinal points, clockwise from north (O = ovest). */
export const CARDINALS_IT = ['N', 'NE', 'E', 'SE', 'S', 'SO', 'O', 'NO'] as const;

export interface WidgetView {
  /** Place label as given (controls replaced), and as shown (truncated). */
  name: string | null;
  nameShown: string | null;
  /** Icon identifier of weather.php (null: no condition). */
  icon: string | null;
  /** Italian condition, e.g. "parzialmente nuvoloso". */
  conditionIt: string;
  temperature: string;
  humidity: string;
  /** "18,0 km/h da SO", or "calma" without a direction. */
  wind: string;
  /** Degrees the wind blows *towards* (the arrow's heading), or null when calm or unknown. */
  windArrowDeg: number | null;
  /** weather.php's own label, or null without a trend. */
  trend: string | null;
  /** "aggiornato alle 12:30" (Europe/Rome). */
  updated: string;
  /** The values come from the labelled demo dataset. */
  sample: boolean;
}

const CONDITION_IT: ReadonlyMap<string, string> = new Map(Object.values(WEATHER_CODES).map((c) => [c.condition as string, c.it as string]));

const ROME_TIME = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** A number as weather.php rounds it, Italian style: decimal comma, U+2212 for negatives. */
export function italianNumber(value: number, decimals: number): string {
  const s = Math.abs(value).toFixed(decimals).replace('.', ',');
  return value < 0 && Number(s.replace(',', '.')) !== 0 ? `\u2212${s}` : s;
}

/** Cardinal point of a direction in degrees (0 = N, clockwise), 45° sectors centred on each point. */
export function cardinalIt(deg: number): (typeof CARDINALS_IT)[number] {
  return CARDINALS_IT[((Math.round((((deg % 360) + 360) % 360) / 45) % 8) + 8) % 8]!;
}

let lastMinute = '';
let lastTime = '';
/**
 * "HH:MM" in Europe/Rome of an ISO instant. The answer of the last UTC minute
 * is kept (Rome's offset changes only on the hour, so the minute decides it):
 * loads of one minute ask it again and again.
 */
export function romeTime(iso: string): string {
  const minute = iso.slice(0, 16);
  if (minute !== lastMinute) {
    lastTime = ROME_TIME.format(new Date(iso));
    lastMinute = minute;
  }
  return lastTime;
}

/** C0/C1 controls (not U+2028/2029, which show as they are) become spaces: a label is one line of text. */
function cleanName(name: string | undefined): string | null {
  if (name === undefined) return null;
  // eslint-disable-next-line no-control-regex
  const s = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  return s === '' ? null : s;
}

function shorten(s: string): string {
  const chars = Array.from(s); // code points: never split a surrogate pair
  return chars.length > NAME_SHOWN_MAX ? `${chars.slice(0, NAME_SHOWN_MAX - 1).join('').trimEnd()}…` : s;
}

export function widgetView(f: FreeFields, name: string | undefined): WidgetView {
  const n = cleanName(name);
  const dir = f.wind_direction;
  const calm = f.wind_speed !== null && f.wind_speed === 0;
  let wind = '—';
  if (f.wind_speed !== null) {
    const speed = `${italianNumber(f.wind_speed, DECIMALS.wind_speed)} km/h`;
    wind = calm || dir === null ? `${speed}, calma` : `${speed} da ${cardinalIt(dir)}`;
  }
  return {
    name: n,
    nameShown: n === null ? null : shorten(n),
    icon: f.icon,
    conditionIt: f.condition === null ? 'condizioni non disponibili' : (CONDITION_IT.get(f.condition) ?? 'condizioni non determinate'),
    temperature: f.temperature === null ? '—' : `${italianNumber(f.temperature, DECIMALS.temperature)} °C`,
    humidity: f.humidity === null ? '—' : `${italianNumber(f.humidity, DECIMALS.humidity)} %`,
    wind,
    windArrowDeg: calm || dir === null ? null : (dir + 180) % 360,
    trend: f.temperature_trend_3h?.label ?? null,
    updated: `aggiornato alle ${romeTime(f.valid_time)}`,
    // temperature_source ends with ", sample data" for the demo dataset (api/fields/base/source.ts).
    sample: f.temperature_source.endsWith(', sample data'),
  };
}
