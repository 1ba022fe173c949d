/**
 * MeteoHub open data (ItaliaMeteo; ICON-2I, no login): which run to fetch
 * and its files. Two parts of the site, as public code that runs against it
 * uses them:
 *
 * - the run list `{root}/api/datasets/{dataset}/opendata`: a JSON array,
 *   newest first, of `{"date": "2026-11-26", "run": "00:00", "filename": …}`
 *   (MeteoHub's backend, the MISTRAL project's OpendataFileList endpoint,
 *   builds `date` as %Y-%m-%d or "from … to …", `run` as HH:MM or null;
 *   clients join them as `{date}T{run}`);
 * - the per-variable tree `{root}/nwp/{directory}/{yyyymmddHH}/{VAR}/`,
 *   directory listings holding one GRIB per variable and level with every
 *   step (Open-Meteo's ItaliaMeteo downloader fetches
 *   `…/{VAR}/icon_2I_{yyyymmddHH}_{level}.grib`, other clients found
 *   `ICON_2I_SURFACE_PRESSURE_LEVELS_{yyyymmddHH}_{level}.grib`: the names
 *   differ, so the files are read from the listing, never guessed).
 *
 * A run is complete when its folder lists every configured variable with at
 * least one GRIB; the newest complete run whose nominal time lies within
 * `lateAfterHours` is taken, else the run is late (jobs/resolve-job.ts falls
 * back). Every call is retried in place (retry.ts).
 */
import type { MeteohubSourceConfig } from '../config-schema.js';
import type { HttpFileSpec } from '../job-types.js';
import { getText, listingEntries, type TextRequest } from './http-text.js';
import { SourceError } from './source-error.js';

export const DEFAULT_LATE_AFTER_HOURS = 18;

export type MeteohubFind =
  | { kind: 'found'; run: Date; files: HttpFileSpec[]; variables: string[]; missingOptional: string[] }
  | { kind: 'late'; reason: string };

const trim = (root: string) => root.replace(/\/+$/, '');

export function runListUrl(src: Pick<MeteohubSourceConfig, 'root' | 'dataset'>): string {
  return `${trim(src.root)}/api/datasets/${encodeURIComponent(src.dataset)}/opendata`;
}

/** `YYYYMMDDHH` of a run (UTC). */
export function runStampOf(run: Date): string {
  return run.toISOString().slice(0, 13).replace(/[-T]/g, '');
}

export function runFolderUrl(src: Pick<MeteohubSourceConfig, 'root' | 'directory'>, run: Date): string {
  return `${trim(src.root)}/nwp/${encodeURIComponent(src.directory)}/${runStampOf(run)}/`;
}

/** The runs a run list names, newest first; period packages ("from … to …") and entries without a run are not runs. */
export function parseRunList(text: string, url: string): Date[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SourceError('BAD_ANSWER', `${url}: the run list is not JSON`, false);
  }
  if (!Array.isArray(json)) throw new SourceError('BAD_ANSWER', `${url}: the run list is not a JSON array`, false);
  const runs = new Map<number, Date>();
  for (const e of json as unknown[]) {
    const { date, run } = (e ?? {}) as { date?: unknown; run?: unknown };
    if (typeof date !== 'string' || typeof run !== 'string') continue;
    const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    const t = /^(\d{2}):(\d{2})$/.exec(run.trim());
    if (!d || !t) continue;
    const at = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
    if (Number.isFinite(at)) runs.set(at, new Date(at));
  }
  if (json.length > 0 && runs.size === 0) throw new SourceError('BAD_ANSWER', `${url}: no entry of the run list has a date (YYYY-MM-DD) and a run (HH:MM)`, false);
  return [...runs.values()].sort((a, b) => b.getTime() - a.getTime());
}

/** What one run's folder holds of the configured variables: the files to download, and what is missing. */
export async function runFiles(src: MeteohubSourceConfig, run: Date, req: TextRequest): Promise<{ files: HttpFileSpec[]; missing: string[]; missingOptional: string[] }> {
  const folder = runFolderUrl(src, run);
  const optional = src.optionalVariables ?? [];
  let present: Set<string>;
  try {
    present = new Set(listingEntries(await getText(folder, { ...req, notFound: 'fail' })).filter((e) => e.endsWith('/')).map((e) => e.slice(0, -1)));
  } catch (err) {
    if (err instanceof SourceError && err.status === 404) return { files: [], missing: [...src.variables], missingOptional: [...optional] };
    throw err;
  }
  const files: HttpFileSpec[] = [];
  const missing: string[] = [];
  const missingOptional: string[] = [];
  for (const v of [...src.variables, ...optional]) {
    const lacking = optional.includes(v) && !src.variables.includes(v) ? missingOptional : missing;
    if (!present.has(v)) {
      lacking.push(v);
      continue;
    }
    const dir = `${folder}${encodeURIComponent(v)}/`;
    const gribs = listingEntries(await getText(dir, { ...req, notFound: 'fail' })).filter((e) => /\.grib2?$/i.test(e));
    if (gribs.length === 0) lacking.push(v);
    for (const g of gribs.sort()) files.push({ url: `${dir}${encodeURIComponent(g)}`, name: `${v}-${g}`, decompress: 'none' });
  }
  return { files, missing, missingOptional };
}

const iso = (d: Date) => `${d.toISOString().slice(0, 13)}Z`;

/**
 * The newest complete run no older than `lateAfterHours` (or exactly `run`
 * when asked for), with its files; else why the run is late.
 */
export async function findMeteohubRun(src: MeteohubSourceConfig, opts: { now: Date; run?: Date; req: TextRequest }): Promise<MeteohubFind> {
  const url = runListUrl(src);
  const listed = parseRunList(await getText(url, { ...opts.req, notFound: 'fail' }), url);
  const lateMs = (src.lateAfterHours ?? DEFAULT_LATE_AFTER_HOURS) * 3_600_000;
  const candidates = opts.run
    ? listed.filter((r) => r.getTime() === opts.run!.getTime())
    : listed.filter((r) => r.getTime() <= opts.now.getTime() && opts.now.getTime() - r.getTime() <= lateMs);
  if (candidates.length === 0) {
    if (opts.run) return { kind: 'late', reason: `run ${iso(opts.run)} is not in the run list ${url}` };
    const newest = listed[0];
    const hours = (src.lateAfterHours ?? DEFAULT_LATE_AFTER_HOURS);
    return { kind: 'late', reason: `no run of the last ${hours} h in the run list${newest ? ` (newest ${iso(newest)})` : ' (empty)'}` };
  }
  const incomplete: string[] = [];
  for (const run of candidates) {
    const r = await runFiles(src, run, opts.req);
    if (r.missing.length === 0) return { kind: 'found', run, files: r.files, variables: [...new Set(r.files.map((f) => f.name.split('-')[0]!))], missingOptional: r.missingOptional };
    incomplete.push(`${iso(run)} lacks ${r.missing.join(', ')}`);
  }
  return { kind: 'late', reason: `no complete run${opts.run ? '' : ` of the last ${src.lateAfterHours ?? DEFAULT_LATE_AFTER_HOURS} h`}: ${incomplete.join('; ')}` };
}
