/**
 * Check `time-axis`: the times make sense for the product's layout.
 *
 * - Every time-varying field has a time of its own: a file without a time
 *   coordinate, reference time or scalar time (SourceField.timeless) is
 *   refused, never published at the Unix epoch.
 * - Forecast stores (`layout: 'forecast'`): each field's lead (valid − run
 *   time, as the file gives them) lies in [−1 h, {@link MAX_LEAD_HOURS}]; no
 *   valid time before {@link FORECAST_EARLIEST} or beyond now + the longest
 *   lead.
 * - Reanalysis years (`layout: 'periods'`): every time lies between the
 *   history start (tiles/history-start.ts) and now, so that each year's
 *   store holds a past year.
 * Static products (dem) have no time axis and are exempt.
 */
import { basename } from 'node:path';
import { HISTORY_START_MS } from '../../tiles/history-start.js';
import type { Finding, GateCheck, GateContext } from './check.js';

const HOUR_MS = 3_600_000;
/** Longest lead of the forecasts this service ingests, with room: ECMWF's ENS runs to 360 h (15 days). */
export const MAX_LEAD_HOURS = 384;
/** A valid time before a run (GRIB step 0 analyses are at it; a little slack for rounding). */
const MIN_LEAD_HOURS = -1;
/**
 * No forecast store holds times before this: the models it ingests are
 * operational since 2015 (ICON) and 2016 (CAMS regional), and archived runs
 * (ERA5 files read as analyses) are not older; an earlier time is a
 * misread epoch or unit.
 */
export const FORECAST_EARLIEST = Date.UTC(2000, 0, 1);
/** Messages name at most this many offending fields. */
const LIST = 3;

const iso = (ms: number) => new Date(ms).toISOString();

export const timeAxis: GateCheck = {
  name: 'time-axis',
  run(ctx: GateContext): Finding[] {
    const { product } = ctx;
    if (product.static || product.layout === 'static') return [];
    const out: string[] = [];
    const timed = ctx.fields.filter((f) => f.aggregation !== 'static');

    const timeless = timed.filter((f) => f.timeless);
    if (timeless.length > 0) {
      const named = [...new Set(timeless.map((f) => `${basename(f.file)} ${f.source}`))];
      out.push(`${named.slice(0, LIST).join(', ')}${named.length > LIST ? ` and ${named.length - LIST} more` : ''}: no time axis (no time or reference-time coordinate), which a ${product.layout === 'forecast' ? 'forecast' : 'reanalysis'} product needs`);
    }
    const dated = timed.filter((f) => !f.timeless);
    if (dated.length === 0) return findings(out);
    const times = dated.map((f) => f.validTime.getTime());
    const first = Math.min(...times);
    const last = Math.max(...times);

    if (product.layout === 'forecast') {
      const bad = dated.filter((f) => {
        const lead = (f.validTime.getTime() - f.referenceTime.getTime()) / HOUR_MS;
        return !(lead >= MIN_LEAD_HOURS && lead <= MAX_LEAD_HOURS);
      });
      if (bad.length > 0) {
        const f = bad[0]!;
        out.push(`${basename(f.file)} ${f.source}: valid ${iso(f.validTime.getTime())} is ${((f.validTime.getTime() - f.referenceTime.getTime()) / HOUR_MS).toFixed(1)} h from its run ${iso(f.referenceTime.getTime())} (a forecast's lead lies in ${MIN_LEAD_HOURS} … ${MAX_LEAD_HOURS} h)${bad.length > 1 ? ` and ${bad.length - 1} more field(s)` : ''}`);
      }
      if (first < FORECAST_EARLIEST) out.push(`first valid time ${iso(first)} is before ${iso(FORECAST_EARLIEST)}: a misread epoch or time unit`);
      const latest = ctx.nowMs + MAX_LEAD_HOURS * HOUR_MS;
      if (last > latest) out.push(`last valid time ${iso(last)} is more than ${MAX_LEAD_HOURS} h after now (${iso(ctx.nowMs)})`);
    } else if (product.layout === 'periods') {
      if (first < HISTORY_START_MS) out.push(`first valid time ${iso(first)} is before the history start ${iso(HISTORY_START_MS)}`);
      if (last > ctx.nowMs) out.push(`last valid time ${iso(last)} is in the future: a reanalysis holds the past`);
    }
    return findings(out);
  },
};

function findings(messages: string[]): Finding[] {
  return messages.map((message) => ({ check: 'time-axis', message }));
}
