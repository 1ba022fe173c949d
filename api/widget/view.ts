/**
 * What the box says, in Italian, from weather.php's Free fields (the base
 * builder's output for the same point, plan and instant): the same rounded
 * values, written the Italian way (decimal comma, U+2212 minus sign as the
 * trend label does), wind from its direction as a cardinal point, the
 * forecast's run time in Europe/Rome, and the place: its name, else its
 * coordinates. Plain strings: escaping is the markup's job (./markup.ts).
 */
import { WEATHER_CODES } from '../../science/index.js';
import { DECIMALS } from '../weather/precision.js';
import type { FreeFields } from '../fields/base/schema.js';

/** Characters of `name` shown; longer names end with an ellipsis (the whole name stays in the title). */
export const NAME_SHOWN_MAX = 60;

/** The eight Italian cardinal points, clockwise from north (O = ovest). */
export const CARDINALS_IT = ['N', 'NE', 'E', 'SE', 'S', 'SO', 'O', 'NO'] as const;

export interface WidgetView {
  /** Place label as given (controls replaced), or null without `name`. */
  name: string | null;
  /** What the box calls the place: the name (truncated), else the point's coordinates ("43,77° N 11,25° E"). */
  nameShown: string;
  /** Without a name, the coordinates' two halves ("43,77° N", "11,25° E"), which the compact row stacks; else null. */
  coordinates: readonly [string, string] | null;
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
  /**
   * When the forecast was made: "previsione delle 05:00" (its run time,
   * Europe/Rome; "di ieri" or the date when not the valid time's day). The
   * values are for the load's own instant, so that says nothing new; the
   * run says how fresh they are. "valori delle 07:14" (the valid time) only
   * for a product that records no run.
   */
  updated: string;
  /** The valid time and the run, in words, for the element's title. */
  updatedTitle: string;
  /** The values come from the labelled demo dataset. */
  sample: boolean;
}

const CONDITION_IT: ReadonlyMap<string, string> = new Map(Object.values(WEATHER_CODES).map((c) => [c.condition as string, c.it as string]));

const ROME_TIME = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const ROME_DAY = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: 'numeric', month: 'numeric', year: 'numeric' });
const ROME_SHORT_DATE = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: 'numeric', month: 'numeric' });

/** A number as weather.php rounds it, Italian style: decimal comma, U+2212 for negatives. */
export function italianNumber(value: number, decimals: number): string {
  // The rounded values repeat from load to load (temperatures in tenths, humidity in units), and toFixed
  // is a runtime call: the texts of recent ones are kept, per number of decimals (-0 and 0 share a key
  // and a text, "0,0").
  const memo = NUMBER_TEXTS[decimals];
  let text = memo?.get(value);
  if (text === undefined) {
    text = italianNumberOf(value, decimals);
    if (memo !== undefined) {
      if (memo.size >= NUMBER_TEXTS_MAX) memo.clear();
      memo.set(value, text);
    }
  }
  return text;
}
const NUMBER_TEXTS: readonly Map<number, string>[] = [new Map(), new Map(), new Map()];
const NUMBER_TEXTS_MAX = 4096;

function italianNumberOf(value: number, decimals: number): string {
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

/**
 * The run of a forecast as the box says it, against the valid time it
 * serves (both ISO instants): "previsione delle 05:00" on the same day in
 * Rome, "previsione delle 23:00 di ieri" the day before, else
 * "previsione del 19/06, 23:00".
 */
export function runLabel(runIso: string, validIso: string): string {
  // Loads of one minute ask the same again and again (as romeTime).
  const key = `${runIso}|${validIso.slice(0, 16)}`;
  if (key !== lastRunKey) {
    lastRunLabel = runLabelOf(runIso, validIso);
    lastRunKey = key;
  }
  return lastRunLabel;
}
let lastRunKey = '';
let lastRunLabel = '';

function runLabelOf(runIso: string, validIso: string): string {
  const run = new Date(runIso);
  const time = ROME_TIME.format(run);
  const day = ROME_DAY.format(run);
  if (day === ROME_DAY.format(new Date(validIso))) return `previsione delle ${time}`;
  if (day === ROME_DAY.format(new Date(Date.parse(validIso) - 86_400_000))) return `previsione delle ${time} di ieri`;
  return `previsione del ${ROME_SHORT_DATE.format(run)}, ${time}`;
}

/** A point's coordinates, Italian style, to 0.01° (about 1 km): ["43,77° N", "11,25° E"]. */
export function italianCoordinates(lat: number, lon: number): [string, string] {
  return [`${italianNumber(Math.abs(lat), 2)}° ${lat < 0 ? 'S' : 'N'}`, `${italianNumber(Math.abs(lon), 2)}° ${lon < 0 ? 'O' : 'E'}`];
}

/** C0/C1 controls (not U+2028/2029, which show as they are) become spaces: a label is one line of text. */
function cleanName(name: string | undefined): string | null {
  if (name === undefined) return null;
  // eslint-disable-next-line no-control-regex
  const s = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  return s === '' ? null : s;
}

function shorten(s: string): string {
  if (s.length <= NAME_SHOWN_MAX) return s; // no more code points than UTF-16 units: nothing to cut (nearly every name)
  const chars = Array.from(s); // code points: never split a surrogate pair
  return chars.length > NAME_SHOWN_MAX ? `${chars.slice(0, NAME_SHOWN_MAX - 1).join('').trimEnd()}…` : s;
}

/** The request's side of the box: the point, its label, the answering forecast's run. */
export interface WidgetPlace {
  lat: number;
  lon: number;
  name?: string | undefined;
  /** Run time of the forecast that answered (ISO), null when its manifest records none. */
  runIso: string | null;
}

export function widgetView(f: FreeFields, place: WidgetPlace): WidgetView {
  const n = cleanName(place.name);
  const coordinates = n === null ? italianCoordinates(place.lat, place.lon) : null;
  const valid = romeTime(f.valid_time);
  const run = place.runIso === null ? null : runLabel(place.runIso, f.valid_time);
  const dir = f.wind_direction;
  const calm = f.wind_speed !== null && f.wind_speed === 0;
  let wind = '—';
  if (f.wind_speed !== null) {
    const speed = `${italianNumber(f.wind_speed, DECIMALS.wind_speed)} km/h`;
    wind = calm || dir === null ? `${speed}, calma` : `${speed} da ${cardinalIt(dir)}`;
  }
  return {
    name: n,
    nameShown: coordinates === null ? shorten(n!) : coordinates.join(' '),
    coordinates,
    icon: f.icon,
    conditionIt: f.condition === null ? 'condizioni non disponibili' : (CONDITION_IT.get(f.condition) ?? 'condizioni non determinate'),
    temperature: f.temperature === null ? '—' : `${italianNumber(f.temperature, DECIMALS.temperature)} °C`,
    humidity: f.humidity === null ? '—' : `${italianNumber(f.humidity, DECIMALS.humidity)} %`,
    wind,
    windArrowDeg: calm || dir === null ? null : (dir + 180) % 360,
    trend: f.temperature_trend_3h?.label ?? null,
    updated: run ?? `valori delle ${valid}`,
    updatedTitle: run === null ? `valori per le ${valid}` : `valori per le ${valid}, ${run}`,
    // temperature_source ends with ", sample data" for the demo dataset (api/fields/base/source.ts).
    sample: f.temperature_source.endsWith(', sample data'),
  };
}
