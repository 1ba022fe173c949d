/**
 * The requests one ADS/CDS job makes, worked out when the job is enqueued so
 * that its data shows each of them: the configured request with the run
 * filled in, cut per month when asked (`split: "month"`; ECMWF advises a
 * month per request for hourly ERA5: a year of Italy is about 105,000 fields
 * against a limit of about 120,000 per request), and the time-invariant
 * variables (`invariantVariables`: geopotential, land-sea mask) taken out of
 * them and asked for once, for the earliest date and time only. The requests
 * come in time order (the invariant one, then the months ascending): their
 * files go to ingest in this order, one file each.
 */
import type { AdsSourceConfig } from '../config-schema.js';
import type { AdsRequestSpec } from '../job-types.js';
import { fillTemplate } from './url-template.js';

/** Request keys that select times: an invariant request keeps only their earliest value. */
const TIME_KEYS = ['year', 'month', 'day', 'date', 'time', 'leadtime_hour'] as const;

/** Fill the run placeholders in every string of a request (arrays and nested objects too). */
function fillRequest(v: unknown, run: Date, product: string): unknown {
  if (typeof v === 'string') return fillTemplate(v, { run, product });
  if (Array.isArray(v)) return v.map((x) => fillRequest(x, run, product));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillRequest(x, run, product)]));
  return v;
}

const list = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : v === undefined ? undefined : [v]);

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `era5-italy-1990.grib` + `01` → `era5-italy-1990-01.grib`. */
function suffixed(fileName: string, tag: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? `${fileName.slice(0, dot)}-${tag}${fileName.slice(dot)}` : `${fileName}-${tag}`;
}

/** What is wrong with a config for splitting and invariants (checked when the configuration loads), or undefined. */
export function adsRequestProblem(src: AdsSourceConfig): string | undefined {
  const variables = list(src.request.variable);
  if (src.invariantVariables) {
    if (!variables) return 'invariantVariables needs request.variable';
    if (!variables.some((v) => typeof v === 'string' && !src.invariantVariables!.includes(v))) return 'every variable of the request is invariant: nothing left to ask per time';
  }
  if (src.split === 'month') {
    const years = list(src.request.year);
    const months = list(src.request.month);
    if (!years || years.length !== 1) return 'split "month" needs request.year to be one year (e.g. "{yyyy}")';
    if (!months || months.length === 0) return 'split "month" needs request.month';
  }
  return undefined;
}

/** The requests of one run, in time order. */
export function adsRequests(product: string, src: AdsSourceConfig, run: Date): { requests: AdsRequestSpec[] } {
  const filled = fillRequest(src.request, run, product) as Record<string, unknown>;
  const fileName = fillTemplate(src.fileName ?? '{product}-{yyyymmddHH}.nc', { run, product });
  const invariant = src.invariantVariables ?? [];
  const main = invariant.length ? { ...filled, variable: list(filled.variable)!.filter((v) => !invariant.includes(v as string)) } : filled;

  const requests: AdsRequestSpec[] = [];
  if (invariant.length) {
    const once: Record<string, unknown> = { ...filled, variable: [...invariant] };
    for (const k of TIME_KEYS) {
      const values = list(filled[k]);
      // The earliest (a configuration may list the months out of order): the invariant file opens the series.
      if (values && values.length > 0) once[k] = [[...values].sort((x, y) => String(x).localeCompare(String(y), 'en', { numeric: true }))[0]];
    }
    requests.push({ key: 'invariant', request: once, fileName: suffixed(fileName, 'invariant') });
  }
  if (src.split !== 'month') {
    requests.push({ key: 'request', request: main, fileName });
    return { requests };
  }
  const year = String(list(filled.year)![0]);
  const days = list(filled.day);
  const months = [...new Set(list(filled.month)!.map((m) => String(m).padStart(2, '0')))].sort();
  for (const month of months) {
    const last = daysInMonth(Number(year), Number(month));
    const request = { ...main, year: [year], month: [month], ...(days ? { day: days.filter((d) => Number(d) <= last) } : {}) };
    requests.push({ key: `${year}-${month}`, request, fileName: suffixed(fileName, month) });
  }
  return { requests };
}
