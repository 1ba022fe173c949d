/**
 * `meteopunto tiles point|info|ls|verify|gc|render`: inspect the published tiles
 * (ls, verify, gc: ./cli-ops.ts; render: ./cli-render.ts).
 *
 *   tiles point <product> --lat <deg> --lon <deg> [--time <ISO 8601>] [--var <name>]... [--json]
 *   tiles info <product> [--json]
 *
 * `point` prints each variable by its manifest rule (bilinear or nearest, on
 * the product's own grid; masks), linear in time, no altitude correction:
 * `{"time": "...", "values": {"<canonical variable>": number|null, ...}}`.
 * This output is a contract other tooling parses: keep it stable.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { dataDir } from '../../config/paths.js';
import { describeResolution, gridSteps } from '../../geo/grid.js';
import { TileStore } from '../read/reader.js';
import { TileError } from '../errors.js';
import type { Manifest } from '../manifest.js';
import * as ops from './cli-ops.js';
import { TILES_USAGE as USAGE, tilesHelp } from './cli-help.js';
import { notPublished } from './products-on-disk.js';

/** Exit codes: 0 ok, 1 no data for the request, 2 bad usage. */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  // `<subcommand> --help`: what it does, its options (point, render: the variables there are).
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(tilesHelp(sub ?? '', dataDir()) ?? USAGE);
    return 0;
  }
  try {
    if (sub === 'point') return await point(rest);
    if (sub === 'info') return await info(rest);
    if (sub === 'ls') return await ops.ls(parse({ args: rest, strict: true, options: { json: { type: 'boolean', default: false } } }).values.json === true);
    if (sub === 'verify') {
      const { values: o, positionals } = parse({ args: rest, allowPositionals: true, strict: true, options: { version: { type: 'string' } } });
      return await ops.verify(productArg(positionals), o.version);
    }
    if (sub === 'render') {
      const { values: o, positionals } = parse({ args: rest, allowPositionals: true, strict: true, options: { var: { type: 'string' }, time: { type: 'string' }, out: { type: 'string' }, width: { type: 'string' } } });
      if (!o.var) throw new UsageError('--var is required');
      const { render } = await import('./cli-render.js');
      return await render({ product: productArg(positionals), variable: o.var, timeMs: o.time === undefined ? undefined : timeArg(o.time), out: o.out, width: o.width });
    }
    if (sub === 'gc') return await ops.gc(parse({ args: rest, strict: true, options: { 'dry-run': { type: 'boolean', default: false } } }).values['dry-run'] === true);
    if (sub === '--help' || sub === '-h' || sub === 'help') {
      console.log(USAGE);
      return 0;
    }
    console.error(sub ? `meteopunto tiles: unknown subcommand '${sub}'\n\n${USAGE}` : USAGE);
    return 2;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ops.OpsUsageError) {
      console.error(`meteopunto tiles: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof TileError) {
      console.error(`meteopunto tiles: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

class UsageError extends Error {}

function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function productArg(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <product>' : `unexpected arguments: ${positionals.slice(1).join(' ')}`);
  return positionals[0]!;
}

function degrees(name: string, raw: unknown, limit: number): number {
  if (typeof raw !== 'string') throw new UsageError(`--${name} is required`);
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || Math.abs(v) > limit) throw new UsageError(`--${name} must be a number in -${limit}..${limit}, got '${raw}'`);
  return v;
}

function timeArg(raw: unknown): number {
  if (raw === undefined) return Date.now();
  const s = String(raw);
  // ISO 8601 date or date-time; a date-time without zone is read as UTC.
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) throw new UsageError(`--time must be ISO 8601 (e.g. 2026-01-31T12:00Z), got '${s}'`);
  const zoned = /T|\s/.test(s) && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? `${s.replace(' ', 'T')}Z` : s;
  const ms = Date.parse(zoned);
  if (!Number.isFinite(ms)) throw new UsageError(`--time is not a valid date: '${s}'`);
  return ms;
}

/** Six decimals: far below any variable's precision, and free of float noise. */
function tidy(v: number | null): number | null {
  return v === null ? null : Math.round(v * 1e6) / 1e6;
}

async function point(args: string[]): Promise<number> {
  const { values: o, positionals } = parse({
    args, allowPositionals: true, strict: true,
    options: {
      lat: { type: 'string' }, lon: { type: 'string' }, time: { type: 'string' },
      var: { type: 'string', multiple: true }, json: { type: 'boolean', default: false },
    },
  });
  const product = productArg(positionals);
  const lat = degrees('lat', o.lat, 90);
  const lon = degrees('lon', o.lon, 360);
  const timeMs = timeArg(o.time);
  const store = new TileStore(dataDir());
  await store.readyAll();
  const m = store.manifest(product);
  if (!m) throw await notPublished(product);
  const variables = o.var;
  const unknown = variables?.filter((v) => !(v in m.variables)) ?? [];
  if (unknown.length) throw new UsageError(`product '${product}' has no variable ${unknown.join(', ')} (it has: ${Object.keys(m.variables).join(', ')})`);
  const s = await store.sample(product, lat, lon, timeMs, variables);
  const values: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(s.values)) values[k] = tidy(v);
  // Masked products: how far the sea/land values come from (null: nothing of that kind within the search radius).
  const distance = s.distanceKm && Object.keys(s.distanceKm).length ? s.distanceKm : undefined;
  if (o.json) {
    console.log(JSON.stringify({ time: s.time, values, ...(distance ? { distance_km: distance } : {}) }));
  } else {
    console.log(`${product} at ${lat}, ${lon}, ${s.time} (version ${m.version}${m.source.sample ? ', SAMPLE DATA' : ''})`);
    for (const [k, v] of Object.entries(values)) console.log(`  ${k.padEnd(28)} ${v === null ? 'missing' : v} ${m.variables[k]?.units ?? ''}`);
    for (const [kind, d] of Object.entries(distance ?? {})) {
      const radius = Object.values(m.variables).find((v) => v.mask === kind)?.search_radius_km ?? m.search_radius_km;
      console.log(`  ${`${kind} cells at`.padEnd(28)} ${d === null ? `none within ${radius} km` : `${d} km`}`);
    }
  }
  return 0;
}

async function info(args: string[]): Promise<number> {
  const { values: o, positionals } = parse({ args, allowPositionals: true, strict: true, options: { json: { type: 'boolean', default: false } } });
  const product = productArg(positionals);
  const store = new TileStore(dataDir());
  await store.readyAll();
  const m = store.manifest(product);
  if (!m) throw await notPublished(product);
  console.log(o.json ? JSON.stringify(m, null, 2) : summary(m));
  return 0;
}

function summary(m: Manifest): string {
  const g = m.grid;
  const gridLine = g.kind === 'rotated_ll'
    ? `rotated lat/lon ${g.nx} × ${g.ny}, ${gridSteps(g)} (${describeResolution(g)}), first cell (${g.x0}, ${g.y0}) rotated, south pole (${g.southPoleLat}, ${g.southPoleLon}), angle ${g.angle}`
    : `regular lat/lon ${g.nx} × ${g.ny}, ${gridSteps(g)} (${describeResolution(g)}), first cell lat ${g.y0}, lon ${g.x0}`;
  const t = m.times;
  const step = t.length > 1 ? `, step ${(Date.parse(t[1]!) - Date.parse(t[0]!)) / 3_600_000} h` : '';
  const vars = Object.entries(m.variables).map(([k, v]) =>
    `  ${k.padEnd(28)} ${v.units.padEnd(10)} ${v.dtype}${v.dtype === 'int16' ? ` × ${v.scale_factor} + ${v.add_offset}` : ''}${v.static ? ' (static)' : ''}`);
  const src = m.source;
  return [
    `product   ${m.product}${src.sample ? '  (SAMPLE DATA)' : ''}`,
    `version   ${m.version}, published ${m.published}`,
    `grid      ${gridLine}`,
    `times     ${t.length ? `${t.length} from ${t[0]} to ${t[t.length - 1]}${step}` : 'none (static only)'}`,
    `chunks    ${m.chunk.t ? `${m.chunk.t} steps` : 'all times'} × ${m.chunk.y} × ${m.chunk.x} cells`,
    `source    ${[src.model, src.run && `run ${src.run}`, src.files.join(', '), src.note].filter(Boolean).join('; ')}`,
    `variables`,
    ...vars,
  ].join('\n');
}
