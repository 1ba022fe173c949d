/**
 * The labelled sample dataset (`meteopunto demo`, `npm start` on a fresh
 * machine), built through the real path: write a CF NetCDF4 file shaped like
 * an NWP product, then ingest it with runIngest exactly as a real file would
 * be (reader → product → tile writer → atomic publish). Same for a finer
 * DEM. Deterministic given the run time.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { runIngest, type IngestReport } from '../pipeline.js';
import { CfNetcdfWriter, int16Range, type Packing } from './netcdf-writer.js';
import { seedFromTime } from './noise.js';
import { terrainOnGrid } from './terrain.js';
import { SAMPLE_VARIABLES, weatherAt, weatherContext, type SampleVariable } from './weather.js';

/** ~2.5 km: 0.025° of latitude (2.8 km) × 0.03° of longitude (2.5 km at 42°N), lat 35.5..47.5, lon 6..19. */
export const SAMPLE_NWP_GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 434, ny: 481, x0: 6, y0: 35.5, dx: 0.03, dy: 0.025 };
/** ~1 km: 0.01° × 0.0125°, same extent. */
export const SAMPLE_DEM_GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 1041, ny: 1201, x0: 6, y0: 35.5, dx: 0.0125, dy: 0.01 };

export const SAMPLE_MODEL = 'meteopunto-sample';
export const SAMPLE_NOTE = 'SAMPLE DATA: synthetic fields from `meteopunto demo` (analytic terrain, seeded synthetic weather), not a forecast';

/** Per variable: NetCDF attributes (ERA5 names and units) and int16 packing range. */
const VARIABLE_META: Record<SampleVariable, { attrs: Record<string, string>; packing: Packing }> = {
  t2m: { attrs: { units: 'K', standard_name: 'air_temperature', long_name: '2 metre temperature' }, packing: int16Range(200, 340) },
  d2m: { attrs: { units: 'K', standard_name: 'dew_point_temperature', long_name: '2 metre dewpoint temperature' }, packing: int16Range(190, 320) },
  msl: { attrs: { units: 'Pa', standard_name: 'air_pressure_at_mean_sea_level', long_name: 'Mean sea level pressure' }, packing: int16Range(94_000, 106_000) },
  sp: { attrs: { units: 'Pa', standard_name: 'surface_air_pressure', long_name: 'Surface pressure' }, packing: int16Range(50_000, 108_000) },
  u10: { attrs: { units: 'm s**-1', standard_name: 'eastward_wind', long_name: '10 metre U wind component' }, packing: int16Range(-40, 40) },
  v10: { attrs: { units: 'm s**-1', standard_name: 'northward_wind', long_name: '10 metre V wind component' }, packing: int16Range(-40, 40) },
  i10fg: { attrs: { units: 'm s**-1', standard_name: 'wind_speed_of_gust', long_name: 'Instantaneous 10 metre wind gust' }, packing: int16Range(0, 80) },
  tcc: { attrs: { units: '(0 - 1)', standard_name: 'cloud_area_fraction', long_name: 'Total cloud cover' }, packing: int16Range(0, 1) },
  tp: { attrs: { units: 'm', standard_name: 'lwe_thickness_of_precipitation_amount', long_name: 'Total precipitation', cell_methods: 'time: sum' }, packing: int16Range(0, 0.1) },
  sf: { attrs: { units: 'm of water equivalent', standard_name: 'lwe_thickness_of_snowfall_amount', long_name: 'Snowfall', cell_methods: 'time: sum' }, packing: int16Range(0, 0.1) },
  ssrd: { attrs: { units: 'J m**-2', standard_name: 'surface_downwelling_shortwave_flux_in_air', long_name: 'Surface short-wave (solar) radiation downwards', cell_methods: 'time: sum' }, packing: int16Range(0, 5e6) },
  fdir: { attrs: { units: 'J m**-2', long_name: 'Total sky direct solar radiation at surface', cell_methods: 'time: sum' }, packing: int16Range(0, 5e6) },
  strd: { attrs: { units: 'J m**-2', standard_name: 'surface_downwelling_longwave_flux_in_air', long_name: 'Surface thermal radiation downwards', cell_methods: 'time: sum' }, packing: int16Range(0, 2e6) },
  tco3: { attrs: { units: 'kg m**-2', standard_name: 'atmosphere_mass_content_of_ozone', long_name: 'Total column ozone' }, packing: int16Range(0.003, 0.012) },
  ww: { attrs: { units: '1', long_name: 'present weather, WMO code table 4677' }, packing: { kind: 'code' } },
};

export interface SampleOptions {
  /** Data directory the tiles go to. */
  root: string;
  /** "Now" (default: the clock). The run starts 3–6 h before it, on a 3-hourly cycle. */
  now?: Date;
  /** Hours after now (rounded down to the hour) the forecast reaches (default 48). */
  hoursAhead?: number;
  nwpGrid?: RegularLatLonGrid;
  demGrid?: RegularLatLonGrid;
  /** Keep the generated NetCDF files in this directory (default: a temp dir, removed afterwards). */
  keepDir?: string;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
}

export interface SampleResult {
  run: Date;
  nwp: IngestReport;
  dem: IngestReport;
  /** Paths of the generated files (removed unless keepDir was given). */
  files: { nwp: string; dem: string };
  timingsMs: { generateNwp: number; ingestNwp: number; generateDem: number; ingestDem: number };
}

/** The run time of a sample made at `now`: the last 3-hourly cycle at least 3 h old. */
export function sampleRunTime(now: Date): Date {
  const hour = 3_600_000;
  const nowH = Math.floor(now.getTime() / hour) * hour;
  return new Date(Math.floor((nowH - 3 * hour) / (3 * hour)) * 3 * hour);
}

export async function buildSampleDataset(opts: SampleOptions): Promise<SampleResult> {
  const now = opts.now ?? new Date();
  const run = sampleRunTime(now);
  const hour = 3_600_000;
  const end = Math.floor(now.getTime() / hour) * hour + (opts.hoursAhead ?? 48) * hour;
  const times: Date[] = [];
  for (let t = run.getTime(); t <= end; t += hour) times.push(new Date(t));
  const nwpGrid = opts.nwpGrid ?? SAMPLE_NWP_GRID;
  const demGrid = opts.demGrid ?? SAMPLE_DEM_GRID;
  const dir = opts.keepDir ?? (await mkdtemp(join(tmpdir(), 'meteopunto-sample-')));
  if (opts.keepDir) await mkdir(opts.keepDir, { recursive: true });
  const stamp = run.toISOString().slice(0, 13).replace(/[-:]/g, '');
  const files = { nwp: join(dir, `meteopunto-sample-nwp-${stamp}Z.nc`), dem: join(dir, 'meteopunto-sample-dem.nc') };
  const say = opts.onProgress ?? (() => undefined);
  const clock = () => performance.now();

  try {
    let t0 = clock();
    say(`generating sample NWP: ${nwpGrid.nx}×${nwpGrid.ny} cells, ${times.length} hourly steps from ${run.toISOString()}`);
    await writeNwpFile(files.nwp, nwpGrid, run, times, opts.signal);
    const generateNwp = clock() - t0;
    t0 = clock();
    say('ingesting sample NWP (product nwp)');
    const source = { model: SAMPLE_MODEL, run: run.toISOString(), sample: true, note: SAMPLE_NOTE };
    const nwp = await runIngest({ root: opts.root, product: 'nwp', files: [files.nwp], source, ...(opts.signal ? { signal: opts.signal } : {}) });
    const ingestNwp = clock() - t0;
    t0 = clock();
    say(`generating sample DEM: ${demGrid.nx}×${demGrid.ny} cells`);
    await writeDemFile(files.dem, demGrid, run);
    const generateDem = clock() - t0;
    t0 = clock();
    say('ingesting sample DEM (product dem)');
    const dem = await runIngest({ root: opts.root, product: 'dem', files: [files.dem], source, ...(opts.signal ? { signal: opts.signal } : {}) });
    const ingestDem = clock() - t0;
    return { run, nwp, dem, files, timingsMs: { generateNwp, ingestNwp, generateDem, ingestDem } };
  } finally {
    if (!opts.keepDir) await rm(dir, { recursive: true, force: true });
  }
}

const cellCentres = (x0: number, dx: number, n: number) => Float64Array.from({ length: n }, (_, i) => +(x0 + i * dx).toFixed(6));

function globalAttrs(run: Date, what: string): Record<string, string> {
  return {
    Conventions: 'CF-1.8',
    title: `Meteopunto SAMPLE ${what} over Italy (synthetic)`,
    institution: 'meteopunto demo',
    source: 'synthetic: analytic terrain and seeded weather (ingest/sample/), NOT real model output',
    comment: SAMPLE_NOTE,
    history: `${new Date().toISOString()} generated by meteopunto demo for run ${run.toISOString()}`,
  };
}

async function writeNwpFile(path: string, grid: RegularLatLonGrid, run: Date, times: Date[], signal?: AbortSignal): Promise<void> {
  const terrain = terrainOnGrid(grid);
  const ctx = weatherContext(grid, terrain, run, seedFromTime(run.getTime()));
  const w = await CfNetcdfWriter.create(path, cellCentres(grid.y0, grid.dy, grid.ny), cellCentres(grid.x0, grid.dx, grid.nx), globalAttrs(run, 'NWP forecast'));
  try {
    const units = `hours since ${run.toISOString().slice(0, 19).replace('T', ' ')}`;
    w.defineTime(units, 0);
    const z = Float32Array.from(terrain.elevationM, (m) => m * 9.80665);
    w.addStatic('z', z, { units: 'm**2 s**-2', standard_name: 'surface_geopotential', long_name: 'Geopotential (model orography × g)' });
    for (const name of SAMPLE_VARIABLES) w.defineTimed({ name, attrs: VARIABLE_META[name].attrs, packing: VARIABLE_META[name].packing });
    for (const t of times) {
      signal?.throwIfAborted();
      w.appendStep((t.getTime() - run.getTime()) / 3_600_000, weatherAt(ctx, t));
    }
  } finally {
    w.close();
  }
}

async function writeDemFile(path: string, grid: RegularLatLonGrid, run: Date): Promise<void> {
  const terrain = terrainOnGrid(grid, true);
  const w = await CfNetcdfWriter.create(path, cellCentres(grid.y0, grid.dy, grid.ny), cellCentres(grid.x0, grid.dx, grid.nx), globalAttrs(run, 'digital elevation model'));
  try {
    w.addStatic('orog', terrain.elevationM, { units: 'm', standard_name: 'surface_altitude', long_name: 'surface altitude (synthetic DEM)' });
  } finally {
    w.close();
  }
}
