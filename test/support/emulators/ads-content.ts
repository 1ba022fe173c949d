/**
 * What the ADS/CDS emulator delivers, made from the real files in
 * ../shared/data: the CAMS Europe files as they are (one NetCDF or a
 * netcdf_zip of both), and ERA5 GRIB for a request's days and times made
 * from the real ERA5 2 m temperature message by ecCodes' own tools (the
 * values stay the real field, or a fixed multiple of it; only keys change),
 * laid out as the CDS delivers ERA5: 2 m temperature as analyses at their
 * time; total precipitation as the hour's amount from the 06 or 18 UTC
 * forecast (stepRange "5-6" of the run of 18 UTC the day before for 00 UTC),
 * so a month's first hours come from a run of the month before; geopotential
 * as a surface field of the first date and time asked.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataFile } from '../shared-data.js';

export const CAMS_FILES = () => [dataFile('cams-europe-pollen-jaen/2024AnalisisPolem.nc'), dataFile('cams-europe-pollen-jaen/2024AnalisisContam.nc')];
const ERA5_T2M = () => dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib');
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);

/** The run and step range of ERA5's hourly amount valid at `valid` (ERA5 documentation: forecasts from 06 and 18 UTC, steps 1–12). */
export function era5Run(valid: Date): { run: Date; step: number } {
  const h = valid.getUTCHours();
  const runHour = h >= 7 && h <= 18 ? 6 : 18;
  const run = new Date(Date.UTC(valid.getUTCFullYear(), valid.getUTCMonth(), valid.getUTCDate() - (h <= 6 ? 1 : 0), runHour));
  return { run, step: (valid.getTime() - run.getTime()) / 3_600_000 };
}

/** The factor on the real temperature field (K) that makes the precipitation (m) valid at hour `h` UTC: 0.3–7 mm, distinct per hour. */
export const tpFactor = (h: number) => 1e-6 * (1 + h);

const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
const hhmm = (d: Date) => String(d.getUTCHours() * 100);

/** ERA5's 2 m temperature message re-keyed by grib_filter: one message per block of `set` lines, in order. */
function filtered(out: string, blocks: string[]): void {
  const rules = `${out}.rules`;
  writeFileSync(rules, blocks.map((b) => `${b}\nwrite;\n`).join(''));
  execFileSync('grib_filter', ['-o', out, rules, ERA5_T2M()]);
}

/**
 * One GRIB file in `dir` answering an ERA5 single-levels request: per
 * (year, month, day, time) asked, a 2 m temperature and/or a total
 * precipitation message; or one surface geopotential message (values: the
 * temperature field's numbers) when only geopotential is asked. Returns its path.
 */
export function era5Grib(inputs: Record<string, unknown>, dir: string, name: string): string {
  const out = join(dir, name);
  const variables = list(inputs.variable);
  const times: Date[] = [];
  for (const y of list(inputs.year)) {
    for (const m of list(inputs.month)) {
      for (const d of list(inputs.day)) {
        for (const t of list(inputs.time)) times.push(new Date(`${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}T${t}:00Z`));
      }
    }
  }
  if (variables.length === 1 && variables[0] === 'geopotential') {
    filtered(out, [`set table2Version=128; set indicatorOfParameter=129; set dataDate=${ymd(times[0]!)}; set dataTime=${hhmm(times[0]!)};`]);
    return out;
  }
  const parts: Buffer[] = [];
  if (variables.includes('2m_temperature')) {
    filtered(`${out}.t2m`, times.map((t) => `set dataDate=${ymd(t)}; set dataTime=${hhmm(t)};`));
    parts.push(readFileSync(`${out}.t2m`));
  }
  if (variables.includes('total_precipitation')) {
    // scaleValuesBy multiplies what the handle holds: each block scales the previous block's values on.
    let factor = 1;
    const blocks = times.map((t, k) => {
      const { run, step } = era5Run(t);
      const next = tpFactor(t.getUTCHours());
      const b = `${k === 0 ? 'set table2Version=128; set indicatorOfParameter=228; set timeRangeIndicator=4; ' : ''}set dataDate=${ymd(run)}; set dataTime=${hhmm(run)}; set P1=${step - 1}; set P2=${step}; set scaleValuesBy=${next / factor};`;
      factor = next;
      return b;
    });
    filtered(`${out}.tp`, blocks);
    parts.push(readFileSync(`${out}.tp`));
  }
  writeFileSync(out, Buffer.concat(parts));
  return out;
}
