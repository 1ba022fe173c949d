/**
 * The bench's data: a realistic national nwp store written through the real
 * writer — all of Italy at 0.025° × 0.02° (≈ 2.2 km, 484 × 530 cells), 50
 * hourly steps around now, every Free variable and the Developer inputs and
 * the one precomputed index a real nwp ingest stores, the mean radiant
 * temperature (18 variables),
 * terrain-following fields — plus a 0.01° DEM; and the deterministic points
 * every section asks for.
 */
import type { RegularLatLonGrid } from '../geo/grid.js';
import { isInSanMarino } from '../geo/regions.js';
import { withCatalogue } from '../ingest/products/catalogue-input.js';
import { writeProductVersion } from '../tiles/write/writer.js';
import type { VariableInput } from '../tiles/types.js';
import type { PointQuery } from '../api/weather/service.js';

export const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 484, ny: 530, x0: 6.5, y0: 36.5, dx: 0.025, dy: 0.02 };
const DEM_GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 1210, ny: 1060, x0: 6.5, y0: 36.5, dx: 0.01, dy: 0.01 };
export const STEPS = 50;
const HOUR = 3600_000;

/** Synthetic orography: Alps along 46.3 N, an Apennine ridge down the peninsula, m. */
function orography(lat: number, lon: number): number {
  const alps = 2600 * Math.exp(-(((lat - 46.3) / 0.45) ** 2)) * (lon > 6.8 && lon < 13.8 ? 1 : 0.3);
  const ridgeLon = 9.3 + (44.3 - lat) * 0.75; // the Apennines run NW → SE
  const apennines = lat < 44.6 && lat > 38 ? 1500 * Math.exp(-(((lon - ridgeLon) / 0.35) ** 2)) : 0;
  const hills = 150 * (1 + Math.sin(lat * 23.1) * Math.cos(lon * 19.7));
  return Math.max(0, alps + apennines + hills);
}

function plane(grid: RegularLatLonGrid, f: (lat: number, lon: number, n: number) => number): Float32Array {
  const a = new Float32Array(grid.nx * grid.ny);
  for (let j = 0, n = 0; j < grid.ny; j++) {
    const lat = grid.y0 + j * grid.dy;
    for (let i = 0; i < grid.nx; i++, n++) a[n] = f(lat, grid.x0 + i * grid.dx, n);
  }
  return a;
}

/**
 * A field a·row(lat) ⊗ col(lon) + row(lat) + col(lon) + cell(n), built from
 * precomputed row and column terms so that 141 M values take a second, not a
 * minute (the benchmark measures reading, not this).
 */
function separable(
  rowFn: (lat: number) => number,
  colFn: (lon: number) => number,
  cell?: (n: number) => number,
  product?: { row: (lat: number) => number; col: (lon: number) => number },
): Float32Array {
  const g = GRID;
  const row = Float64Array.from({ length: g.ny }, (_, j) => rowFn(g.y0 + j * g.dy));
  const col = Float64Array.from({ length: g.nx }, (_, i) => colFn(g.x0 + i * g.dx));
  const pr = product ? Float64Array.from({ length: g.ny }, (_, j) => product.row(g.y0 + j * g.dy)) : null;
  const pc = product ? Float64Array.from({ length: g.nx }, (_, i) => product.col(g.x0 + i * g.dx)) : null;
  const a = new Float32Array(g.nx * g.ny);
  for (let j = 0, n = 0; j < g.ny; j++) {
    for (let i = 0; i < g.nx; i++, n++) {
      a[n] = row[j]! + col[i]! + (cell ? cell(n) : 0) + (pr ? pr[j]! * pc![i]! : 0);
    }
  }
  return a;
}

const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);

/** Write the nwp and dem stores; returns the first valid time. */
export async function buildBenchData(root: string, nowMs: number): Promise<number> {
  const t0 = Math.floor(nowMs / HOUR) * HOUR - 6 * HOUR;
  const times = Array.from({ length: STEPS }, (_, k) => new Date(t0 + k * HOUR));
  const z = plane(GRID, orography);
  const hours = times.map((t) => t.getUTCHours() + t.getUTCMinutes() / 60);
  const per = (f: (k: number) => Float32Array, precision: number, units: string): VariableInput => ({
    units,
    precision,
    values: times.map((_, k) => f(k)),
  });
  // Temperature: latitude gradient, lapse rate over the orography, a diurnal wave travelling with longitude.
  const tempK = (k: number) => {
    const w = ((hours[k]! - 15) / 24) * 2 * Math.PI;
    return separable(
      (lat) => 24 - 0.8 * (lat - 36.5),
      (lon) => 5 * Math.cos(w + (lon / 15 / 24) * 2 * Math.PI) + 1.5 * Math.sin(k / 7 + lon),
      (n) => -0.0065 * z[n]!,
    );
  };
  const temps = times.map((_, k) => tempK(k));
  // Cloud: 50 + 50·sin(3·lat + 2·lon + k/5), expanded as a sum of separable products.
  const clouds = times.map((_, k) => {
    const a = separable(() => 50, () => 0, undefined, { row: (lat) => 50 * Math.sin(3 * lat + k / 5), col: (lon) => Math.cos(2 * lon) });
    const b = separable(() => 0, () => 0, undefined, { row: (lat) => 50 * Math.cos(3 * lat + k / 5), col: (lon) => Math.sin(2 * lon) });
    for (let n = 0; n < a.length; n++) a[n] = clamp(a[n]! + b[n]!, 0, 100);
    return a;
  });
  const mapCloud = (k: number, f: (c: number, n: number) => number) => {
    const c = clouds[k]!;
    const out = new Float32Array(c.length);
    for (let n = 0; n < c.length; n++) out[n] = f(c[n]!, n);
    return out;
  };
  // Radiation for the Developer fields: a clear-sky day arch in local solar time, dimmed by cloud.
  const clearSw = (k: number, n: number) => {
    const solarHour = hours[k]! + (GRID.x0 + (n % GRID.nx) * GRID.dx) / 15;
    return 850 * Math.max(0, Math.sin((Math.PI * (solarHour - 6)) / 12));
  };
  const shortwave = times.map((_, k) => mapCloud(k, (c, n) => clearSw(k, n) * (1 - (0.6 * c) / 100)));
  const mapShortwave = (k: number, f: (sw: number, n: number) => number) => {
    const sw = shortwave[k]!;
    const out = new Float32Array(sw.length);
    for (let n = 0; n < sw.length; n++) out[n] = f(sw[n]!, n);
    return out;
  };
  await writeProductVersion(root, withCatalogue({
    product: 'nwp',
    grid: GRID,
    times,
    source: { files: ['bench-synthetic'], model: 'bench', sample: true, note: 'benchmark data' },
    variables: {
      temperature_2m: per((k) => temps[k]!, 0.01, '°C'),
      dew_point_2m: per((k) => separable((lat) => -4 - 3 * (1 + Math.sin(lat + k / 9)), () => 0, (n) => temps[k]![n]!), 0.01, '°C'),
      relative_humidity_2m: per((k) => separable((lat) => 55 + 20 * Math.sin(lat * 2 + k / 6), (lon) => 10 * Math.cos(lon)), 0.1, '%'),
      pressure_msl: per((k) => separable((lat) => 1013 + 8 * Math.sin(lat / 2 + k / 20), (lon) => -0.2 * (lon - 12)), 0.01, 'hPa'),
      wind_u_10m: per((k) => separable((lat) => 4 * Math.sin(lat + k / 8), (lon) => 1.5 * Math.cos(lon * 3)), 0.01, 'm/s'),
      wind_v_10m: per((k) => separable(() => -1, (lon) => 3 * Math.cos(lon + k / 10)), 0.01, 'm/s'),
      wind_gust_10m: per((k) => separable((lat) => 8 + 3 * (1 + Math.sin(lat * 1.7 + k / 8)), (lon) => 3 * (1 + Math.cos(lon))), 0.01, 'm/s'),
      cloud_cover: per((k) => clouds[k]!, 0.1, '%'),
      precipitation: per((k) => mapCloud(k, (c) => Math.max(0, (c - 80) / 4)), 0.01, 'mm'),
      snowfall_fraction: per((k) => mapCloud(k, (_c, n) => (z[n]! > 1800 ? 1 : 0)), 0.001, '1'),
      weather_code: per((k) => mapCloud(k, (c) => (c > 85 ? 61 : c >= 80 ? 3 : c >= 50 ? 2 : c >= 20 ? 1 : 0)), 1, 'WMO 4677'),
      elevation: { units: 'm', precision: 0.1, static: true, values: [z] },
      // What a real nwp store adds for the Developer fields: their inputs and the one precomputed index (ingest/indices).
      shortwave_radiation: per((k) => shortwave[k]!, 0.1, 'W/m²'),
      direct_radiation: per((k) => mapCloud(k, (c, n) => 0.7 * clearSw(k, n) * (1 - c / 100)), 0.1, 'W/m²'),
      longwave_radiation: per((k) => mapCloud(k, (c, n) => 290 + 0.9 * c + 2 * temps[k]![n]!), 0.1, 'W/m²'),
      surface_pressure: per((k) => separable((lat) => 1013 + 8 * Math.sin(lat / 2 + k / 20), (lon) => -0.2 * (lon - 12), (n) => -0.115 * z[n]!), 0.01, 'hPa'),
      total_ozone: per((k) => separable((lat) => 300 + 20 * Math.sin(lat / 3 + k / 30), (lon) => 5 * Math.cos(lon)), 0.1, 'DU'),
      mean_radiant_temperature: per((k) => mapShortwave(k, (sw, n) => temps[k]![n]! + sw / 40), 0.01, '°C'),
    },
  }));
  await writeProductVersion(root, withCatalogue({
    product: 'dem',
    grid: DEM_GRID,
    times: [],
    source: { files: ['bench-synthetic-dem'] },
    variables: { elevation: { units: 'm', precision: 0.1, static: true, values: [plane(DEM_GRID, (la, lo) => orography(la, lo) + 40 * Math.sin(la * 97) * Math.cos(lo * 89))] } },
  }));
  return t0;
}

/**
 * Deterministic points over Italy's land-ish box (a small LCG, so every run
 * asks the same), to 4 decimals as the HTTP queries send them. Points in San
 * Marino are left out: a Free key is refused there (403), and refusals would
 * trip the flood guard.
 */
export function benchPoints(n: number): PointQuery[] {
  let s = 12345;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const out: PointQuery[] = [];
  while (out.length < n) {
    const lat = Math.round((37 + rnd() * 9.5) * 1e4) / 1e4;
    const lon = Math.round((7 + rnd() * 11) * 1e4) / 1e4;
    const altM = out.length % 2 ? Math.round(rnd() * 1500) : undefined;
    if (!isInSanMarino(lat, lon)) out.push(altM === undefined ? { lat, lon } : { lat, lon, altM });
  }
  return out;
}
