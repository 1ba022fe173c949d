/**
 * Tile-layer point-lookup benchmark: median and p99 of a warm
 * `TileStore.trySample` of every variable of the nwp store at one time
 * (bilinear + linear in time, ~15 variables), plus the cold cost (chunk
 * loads) and how often a lookup's 2×2 neighbourhood spans more than one chunk.
 *
 * Standalone: `npx tsx bench/point-lookup.ts` (builds its own 15-variable
 * store); from `npm run bench` (bench/run.ts): `runPointLookupBench({ dataDir })`
 * reads the nwp store bench/run.ts built.
 */
import { mkdtempSync, rmSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gridIndexOf, type RegularLatLonGrid } from '../geo/grid.js';
import { TileStore } from '../tiles/read/reader.js';
import { withCatalogue } from '../ingest/products/catalogue-input.js';
import { writeProductVersion } from '../tiles/write/writer.js';
import type { VariableInput } from '../tiles/types.js';

const HOUR = 3_600_000;
const VARIABLES = [
  'temperature_2m', 'dew_point_2m', 'relative_humidity_2m', 'pressure_msl', 'surface_pressure', 'wind_u_10m',
  'wind_v_10m', 'wind_gust_10m', 'cloud_cover', 'precipitation', 'snowfall_fraction', 'shortwave_radiation',
  'direct_radiation', 'longwave_radiation', 'weather_code',
] as const;

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function dirBytes(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const s = dirBytes(p);
      bytes += s.bytes;
      files += s.files;
    } else {
      bytes += statSync(p).size;
      files++;
    }
  }
  return { bytes, files };
}

/** A 15-variable nwp store, 0.05° over central Italy, 49 hourly steps. */
async function buildStore(root: string, start: number): Promise<void> {
  const grid: RegularLatLonGrid = { kind: 'regular_ll', nx: 160, ny: 160, x0: 8, y0: 38, dx: 0.05, dy: 0.05 };
  const times = Array.from({ length: 49 }, (_, k) => new Date(start + k * HOUR));
  const cells = grid.nx * grid.ny;
  const variables: Record<string, VariableInput> = {};
  VARIABLES.forEach((name, v) => {
    variables[name] = {
      units: '1',
      precision: 0.01,
      values: times.map((_, t) => Float32Array.from({ length: cells }, (_, n) =>
        50 + 20 * Math.sin((n % grid.nx) * 0.07 + v) * Math.cos(Math.floor(n / grid.nx) * 0.05) + 5 * Math.sin(t * 0.26 + v))),
    };
  });
  variables.elevation = { units: 'm', precision: 0.1, static: true, values: [Float32Array.from({ length: cells }, (_, n) => 500 + 400 * Math.sin(n * 0.001))] };
  const t0 = performance.now();
  const r = await writeProductVersion(root, withCatalogue({ product: 'nwp', grid, times, variables, source: { files: ['bench'], note: 'synthetic' } }));
  const size = dirBytes(r.path);
  const raw = (VARIABLES.length * times.length + 1) * cells * 2;
  console.log(`tile writer: ${grid.nx}×${grid.ny} cells × 49 steps × ${VARIABLES.length + 1} variables in ${((performance.now() - t0) / 1000).toFixed(2)} s; ` +
    `${(size.bytes / 1e6).toFixed(1)} MB in ${size.files} files (int16 raw ${(raw / 1e6).toFixed(1)} MB, zstd ${(raw / size.bytes).toFixed(1)}×)`);
}

export async function runPointLookupBench(opts: { dataDir?: string; product?: string } = {}): Promise<{ medianUs: number; p99Us: number }> {
  const product = opts.product ?? 'nwp';
  let root = opts.dataDir;
  const own = !root;
  if (!root) {
    root = mkdtempSync(join(tmpdir(), 'mp-bench-tiles-'));
    await buildStore(root, Math.floor(Date.now() / HOUR) * HOUR);
  }
  try {
    // Large enough for every block the points touch (the national 22-variable store: ~0.2 GB of them), so warm means warm.
    const store = new TileStore(root, { cacheBytes: 1024 * 1024 * 1024 });
    const m = store.manifest(product);
    if (!m) throw new Error(`no ${product} store in ${root}`);
    const g = m.grid;
    const names = Object.keys(m.variables);
    const first = Date.parse(m.times[0]!);
    const last = Date.parse(m.times[m.times.length - 1]!);
    // Points spread over the middle half of the grid (low-discrepancy sequence, reproducible).
    const n = 2000;
    const pts = Array.from({ length: n }, (_, k) => {
      const fy = 0.25 + 0.5 * ((k * 0.618034) % 1);
      const fx = 0.25 + 0.5 * ((k * 0.414214) % 1);
      return g.kind === 'regular_ll'
        ? ([g.y0 + fy * (g.ny - 1) * g.dy, g.x0 + fx * (g.nx - 1) * g.dx] as const)
        : ([40 + 4 * fy, 9 + 6 * fx] as const);
    });
    const time = first + Math.floor((last - first) / 2 / HOUR) * HOUR + 0.4 * HOUR;

    // Cold: the first lookup of a point loads one chunk per variable (usually).
    const c0 = performance.now();
    await store.sample(product, pts[0]![0], pts[0]![1], time);
    const coldMs = performance.now() - c0;
    for (const [lat, lon] of pts) await store.sample(product, lat, lon, time);

    // Share of lookups whose 2×2 neighbourhood spans two or more chunks.
    let multi = 0;
    for (const [lat, lon] of pts) {
      const p = gridIndexOf(g, lat, lon)!;
      const i = Math.min(Math.floor(Math.max(p.x, 0)), g.nx - 2);
      const j = Math.min(Math.floor(Math.max(p.y, 0)), g.ny - 2);
      if (Math.floor(i / m.chunk.x) !== Math.floor((i + 1) / m.chunk.x) || Math.floor(j / m.chunk.y) !== Math.floor((j + 1) / m.chunk.y)) multi++;
    }

    // Warm: every variable at one time, each lookup timed on its own.
    const rounds = 20;
    const samples = new Float64Array(n * rounds);
    let sink = 0;
    for (let r = 0, s = 0; r < rounds; r++) {
      for (let k = 0; k < n; k++, s++) {
        const [lat, lon] = pts[k]!;
        const t = performance.now();
        const v = store.trySample(product, lat, lon, time);
        samples[s] = performance.now() - t;
        if (!v) throw new Error('warm lookup missed the cache');
        sink += v.values[names[0]!] ?? 0;
      }
    }
    samples.sort();
    const medianUs = quantile(samples, 0.5) * 1000;
    const p99Us = quantile(samples, 0.99) * 1000;
    const cache = store.cacheStats();
    console.log(`tile point lookup (${names.length} variables, bilinear + time): warm median ${medianUs.toFixed(2)} µs, p99 ${p99Us.toFixed(2)} µs over ${samples.length} lookups; ` +
      `cold first lookup ${coldMs.toFixed(1)} ms; ${((100 * multi) / n).toFixed(1)} % of points span >1 chunk (edge ${m.chunk.x}); ` +
      `cache ${cache.chunks} chunks, ${(cache.bytes / 1e6).toFixed(1)} MB${sink === 42 ? '' : ''}`);
    return { medianUs, p99Us };
  } finally {
    if (own) rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runPointLookupBench().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
