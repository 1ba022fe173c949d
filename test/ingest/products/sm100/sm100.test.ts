/**
 * San Marino on a 100 m grid, end to end on real files:
 * - nwp: the real ICON-2I orography grid (../shared/data/icon2i-orography)
 *   with 2 m temperature made exactly linear in that orography at each step,
 *   T = 12 − 0.5·k °C + γₖ·z, written with netCDF4-python (./make-nwp.py), so
 *   that the gradient a fit must find is known, an inversion included;
 * - DEM: the real 1 km DEM (../shared/data/dem-north-italy-1km, GRIB1), and
 *   GeoTIFFs made from it with GDAL (gdal_translate, gdalwarp to UTM 33N).
 * Expected values come from those constructions and from GDAL reading the
 * DEM (./cell-elevation.py), not from the code under test.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../../api/app.js';
import type { Plan } from '../../../../api/access/contract.js';
import { generateKey } from '../../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../../api/access/key-store-file.js';
import { readManifestSync } from '../../../../tiles/manifest-file.js';
import { dataFile, describeShared } from '../../../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../../../..');
const HERE = import.meta.dirname;
const PY = '/usr/bin/python3';
const ICON = dataFile('icon2i-orography/I2ITA2KM_orog_20241009.grib2');
const DEM = dataFile('dem-north-italy-1km/nita1k_orog.grb');
const START = Date.UTC(2026, 10, 25, 0);
/** dT/dz per step, K/km: step 2 is a night inversion. */
const GRADIENTS = [-5.9, -4.0, 8.0, -6.5, -9.0];
const TITANO = { lat: 43.9356, lon: 12.4473 };
const SERRAVALLE = { lat: 43.9706, lon: 12.4806 };
const hour = (k: number) => START + k * 3_600_000;

function makeNwp(out: string, startIso: string, gradients: readonly number[]): void {
  execFileSync(PY, [join(HERE, 'make-nwp.py'), ICON, out, startIso, ...gradients.map(String)], { stdio: ['ignore', 'ignore', 'pipe'] });
}

function cellElevations(dem: string, points: readonly { lat: number; lon: number }[]): number[] {
  const out = execFileSync(PY, [join(HERE, 'cell-elevation.py'), dem, JSON.stringify(points.map((p) => [p.lat, p.lon]))], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out) as number[];
}

function cli(data: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: data, REDIS_URL: '' } });
}

const versions = (data: string, product: string) => readdirSync(join(data, 'tiles', product)).filter((n) => n.endsWith('.zarr')).sort();
const live = (data: string, product: string) => readManifestSync(join(data, 'tiles', product))!;

describeShared('sm100: San Marino on a 100 m grid from the real ICON-2I grid and DEM', () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-sm100-'));
  const data = join(work, 'data');
  let now = hour(0);
  let app: FastifyInstance;
  const keys: Partial<Record<Plan, string>> = {};
  const widgetKeys: Partial<Record<Plan, string>> = {};
  let zTitano = NaN;
  let zSerravalle = NaN;

  // app.inject, not fetch: the kill test idles longer than the server's keep-alive, and a reused socket can be reset under load.
  const weather = async (q: string, plan: Plan = 'developer') => {
    const r = await app.inject({ url: `/api/v1/weather.php?${q}&api_key=${keys[plan]}` });
    return { status: r.statusCode, body: r.json() as Record<string, unknown> };
  };
  const at = (p: { lat: number; lon: number }, extra = '') => weather(`lat=${p.lat}&lon=${p.lon}${extra}`);

  beforeAll(async () => {
    makeNwp(join(work, 'nwp.nc'), new Date(START).toISOString(), GRADIENTS);
    const r = cli(data, ['ingest', 'nwp', join(work, 'nwp.nc'), '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('sm100 not built: no DEM ingested yet');
    [zTitano, zSerravalle] = cellElevations(DEM, [TITANO, SERRAVALLE]);
    const store = new FileKeyStore(keysFilePath(data));
    for (const plan of ['free', 'developer'] as const) {
      for (const kind of ['api', 'widget'] as const) {
        const k = generateKey();
        await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind, name: `sm100 ${plan} ${kind}`, created: new Date().toISOString() });
        if (kind === 'api') keys[plan] = k.key;
        else widgetKeys[plan] = k.key;
      }
    }
    await store.close();
    app = await buildApp({ dataDir: data, clock: () => now, access: { env: { METEOPUNTO_DATA: data, METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '100000' } } });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('without a DEM, San Marino is answered by nwp and temperature_source says why', async () => {
    const r = await at(TITANO);
    expect(r.status).toBe(200);
    expect(r.body.temperature_source).toMatch(/^nwp 2\.2 km bilinear, .*; sm100 100 m not published \(no DEM ingested/);
  });

  it('meteopunto ingest sm100 <GRIB DEM> builds the 100 m elevation and one sm100 version from the live nwp', () => {
    const r = cli(data, ['ingest', 'sm100', DEM, '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/published sm100-dem version/);
    expect(r.stdout).toMatch(/derived +sm100 version/);
    expect(versions(data, 'sm100')).toHaveLength(1);
    const m = live(data, 'sm100');
    expect(m.derived_from).toEqual({ product: 'nwp', version: live(data, 'nwp').version, resolution: '2.2 km' });
    expect(m.times).toEqual(GRADIENTS.map((_, k) => new Date(hour(k)).toISOString()));
    expect(m.region.name).toBe('San Marino');
  });

  it('tiles point sm100: the fitted gradient of every step is the one the field was made with, within 0.1 K/km', () => {
    GRADIENTS.forEach((g, k) => {
      const r = cli(data, ['tiles', 'point', 'sm100', '--lat', String(TITANO.lat), '--lon', String(TITANO.lon), '--time', new Date(hour(k)).toISOString(), '--json']);
      expect(r.status, r.stderr).toBe(0);
      const v = (JSON.parse(r.stdout) as { values: Record<string, number> }).values;
      expect(Math.abs(v.temperature_gradient! - g), `step ${k}`).toBeLessThan(0.1);
      expect(v.temperature_gradient_r2).toBeGreaterThan(0.99);
      expect(Math.abs(v.elevation! - zTitano)).toBeLessThan(0.2);
    });
  });

  it('weather.php (Developer): Monte Titano and Serravalle differ by the fitted gradient × their 100 m cells’ elevation difference, the inversion included', async () => {
    expect(zTitano - zSerravalle).toBeGreaterThan(300);
    for (const [k, g] of GRADIENTS.entries()) {
      now = hour(k);
      const [t, s] = await Promise.all([at(TITANO), at(SERRAVALLE)]);
      expect(t.status).toBe(200);
      const tT = t.body.temperature as number;
      const tS = s.body.temperature as number;
      // T = 12 − 0.5 k + γ z at each 100 m cell (the field's construction), reported to 0.1 °C.
      expect(Math.abs(tT - (12 - 0.5 * k + (g / 1000) * zTitano)), `step ${k}`).toBeLessThanOrEqual(0.06);
      expect(Math.abs(tT - tS - (g / 1000) * (zTitano - zSerravalle)), `step ${k}`).toBeLessThanOrEqual(0.11);
      expect(t.body.temperature_source).toMatch(/^sm100 100 m bilinear, downscaled from nwp 2\.2 km with dT\/dz [+−]\d+\.\d K\/km fitted \(R² 1\.00\), at the grid's elevation \d+ m$/);
      if (g > 0) expect(tT).toBeGreaterThan(tS + 2.5);
    }
  });

  it('alt= corrects further from the 100 m cell with the fitted gradient; humidity stays consistent', async () => {
    now = hour(2);
    const plain = await at(TITANO);
    const high = await at(TITANO, '&alt=700');
    const expected = 12 - 1 + (8 / 1000) * 700;
    expect(Math.abs((high.body.temperature as number) - expected)).toBeLessThanOrEqual(0.06);
    expect(high.body.temperature_source).toMatch(/altitude-corrected \d+ m → 700 m \(alt\), dT\/dz \+8\.0 K\/km$/);
    // Dew point 4 K under the model temperature at every cell: relative humidity is kept, the dew point follows.
    expect(high.body.humidity).toBe(plain.body.humidity);
    expect((high.body.dew_point as number) - (plain.body.dew_point as number)).toBeGreaterThan(1);
  });

  it('a Free key in San Marino is refused naming the plan; outside it nothing changes', async () => {
    now = hour(0);
    const r = await weather(`lat=${TITANO.lat}&lon=${TITANO.lon}`, 'free');
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).toMatch(/developer/i);
    const rimini = await weather('lat=44.06&lon=12.57', 'free');
    expect(rimini.status).toBe(200);
    expect(rimini.body.temperature_source).toMatch(/^nwp 2\.2 km/);
  });

  it('widget.php shows the sm100 temperature in San Marino for a Developer widget key; a Free widget key is refused there', async () => {
    now = hour(2);
    const page = await app.inject({ url: `/api/v1/widget.php?lat=${TITANO.lat}&lon=${TITANO.lon}&mode=iframe&key=${widgetKeys.developer}` });
    expect(page.statusCode).toBe(200);
    const expected = (12 - 1 + (8 / 1000) * zTitano).toFixed(1).replace('.', ',');
    expect(page.body).toContain(`<span class="temp">${expected} °C</span>`);
    const free = await app.inject({ url: `/api/v1/widget.php?lat=${TITANO.lat}&lon=${TITANO.lon}&mode=iframe&key=${widgetKeys.free}` });
    expect(free.statusCode).toBe(403);
  });

  it('the store opens in xarray with the 100 m cells and the downscaled values', () => {
    const m = live(data, 'sm100');
    const py = `
import json, sys, xarray as xr
ds = xr.open_zarr(sys.argv[1])
j, i = int(sys.argv[2]), int(sys.argv[3])
print(json.dumps({'dims': {k: int(v) for k, v in ds.sizes.items()}, 'lat': float(ds.lat[j]), 'lon': float(ds.lon[i]),
  'z': float(ds.elevation[j, i]), 't': [float(x) for x in ds.temperature_2m[:, j, i].values], 'g': [float(x) for x in ds.temperature_gradient[:, j, i].values]}))`;
    const j = 80;
    const i = 70;
    const out = JSON.parse(execFileSync(PY, ['-c', py, join(data, 'tiles', 'sm100', m.version), String(j), String(i)], { encoding: 'utf8' })) as {
      dims: Record<string, number>; lat: number; lon: number; z: number; t: number[]; g: number[];
    };
    expect(out.dims).toMatchObject({ time: 5, lat: 152, lon: 137 });
    expect(out.lat).toBeCloseTo(43.87 + j * 0.0009, 6);
    expect(out.lon).toBeCloseTo(12.355 + i * 0.00125, 6);
    const [z] = cellElevations(DEM, [{ lat: out.lat, lon: out.lon }]);
    expect(Math.abs(out.z - z!)).toBeLessThan(0.1);
    GRADIENTS.forEach((g, k) => {
      expect(Math.abs(out.t[k]! - (12 - 0.5 * k + (g / 1000) * z!))).toBeLessThan(0.02);
      expect(Math.abs(out.g[k]! - g)).toBeLessThan(0.1);
    });
  });

  it('a nwp publish produces exactly one matching sm100 version; killed between the two, the API stays consistent', async () => {
    makeNwp(join(work, 'nwp2.nc'), new Date(START).toISOString(), GRADIENTS.map((g) => g + 1));
    const before = versions(data, 'sm100');
    const oldNwp = live(data, 'nwp').version;
    // Killed as soon as it starts building sm100: nwp is published, sm100 is not.
    const killed = await new Promise<string>((ok) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'ingest', 'nwp', join(work, 'nwp2.nc')], {
        cwd: REPO, env: { ...process.env, METEOPUNTO_DATA: data, REDIS_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (b: Buffer) => {
        err += b.toString();
        if (/building sm100/.test(err)) child.kill('SIGKILL');
      });
      child.once('exit', (_code, signal) => ok(`${signal} ${err}`));
    });
    expect(killed).toMatch(/^SIGKILL/);
    const newNwp = live(data, 'nwp').version;
    expect(newNwp).not.toBe(oldNwp);
    expect(live(data, 'sm100').derived_from?.version).toBe(oldNwp);
    // The stale sm100 is not paired with the new run: San Marino gets the new nwp, and is told why.
    await new Promise((r) => setTimeout(r, 2100)); // the router's listing refresh
    now = hour(0);
    const r = await at(TITANO);
    expect(r.status).toBe(200);
    expect(r.body.temperature_source).toMatch(new RegExp(`^nwp 2\\.2 km bilinear, .*; sm100 not used: it was built from nwp ${oldNwp}, not the live nwp ${newNwp}$`));

    const done = cli(data, ['ingest', 'nwp', join(work, 'nwp2.nc'), '--quiet']);
    expect(done.status, done.stderr).toBe(0);
    const after = versions(data, 'sm100').filter((v) => !before.includes(v));
    expect(after).toHaveLength(1);
    expect(live(data, 'sm100')).toMatchObject({ version: after[0], derived_from: { version: live(data, 'nwp').version } });
    const again = await at(TITANO);
    expect(again.body.temperature_source).toMatch(/^sm100 100 m bilinear, downscaled from nwp 2\.2 km with dT\/dz −4\.9 K\/km fitted/);
    expect(Math.abs((again.body.temperature as number) - (12 + (-4.9 / 1000) * zTitano))).toBeLessThanOrEqual(0.06);
  }, 120_000);
});

describeShared('sm100: the DEM as GeoTIFF (written by GDAL)', () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-sm100-tif-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const elevationAt = (data: string, p: { lat: number; lon: number }) => {
    const r = cli(data, ['tiles', 'point', 'sm100-dem', '--lat', String(p.lat), '--lon', String(p.lon), '--json']);
    expect(r.status, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { values: { elevation: number } }).values.elevation;
  };
  const ingest = (tif: string) => {
    const data = join(work, `data-${tif}`);
    const r = cli(data, ['ingest', 'sm100', join(work, tif), '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    return { data, out: r.stdout };
  };
  const gdal = (tool: string, args: string[]) => execFileSync(tool, ['-q', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });

  it('a lat/lon GeoTIFF gives the same 100 m cells as the GRIB it was translated from', () => {
    gdal('gdal_translate', ['-of', 'GTiff', '-a_srs', 'EPSG:4326', DEM, join(work, 'dem4326.tif')]);
    const { data, out } = ingest('dem4326.tif');
    expect(out).toMatch(/GeoTIFF EPSG:4326, 1\.1 km\), 1 × 1 sub-samples/);
    const ref = cellElevations(DEM, [TITANO, SERRAVALLE]);
    [TITANO, SERRAVALLE].forEach((p, k) => expect(Math.abs(elevationAt(data, p) - ref[k]!)).toBeLessThan(0.2));
    // A real DEM is not replaced by the sample's synthetic one.
    const demo = cli(data, ['demo']);
    expect(demo.status).toBe(2);
    expect(demo.stderr).toMatch(/already holds real \(non-sample\) tiles for sm100-dem/);
  });

  it('a UTM 33N GeoTIFF at 25 m is reprojected through proj4 and averaged over 4 × 4 sub-samples per cell', () => {
    // gdalwarp resamples the 1 km DEM bilinearly onto 25 m UTM pixels: the cell means then differ from the
    // GRIB's bilinear centre values only by the curvature of that surface within a cell (a few metres).
    gdal('gdalwarp', ['-t_srs', 'EPSG:32633', '-tr', '25', '25', '-r', 'bilinear', '-srcnodata', '9999', '-dstnodata', '-32768', '-ot', 'Int16', '-te', '283000', '4852000', '303000', '4882000', DEM, join(work, 'dem32633.tif')]);
    const { data, out } = ingest('dem32633.tif');
    expect(out).toMatch(/GeoTIFF EPSG:32633, 25 m\), 4 × 4 sub-samples/);
    const ref = cellElevations(DEM, [TITANO, SERRAVALLE]);
    [TITANO, SERRAVALLE].forEach((p, k) => expect(Math.abs(elevationAt(data, p) - ref[k]!), `point ${k}`).toBeLessThan(8));
  });

  it('a GeoTIFF that does not cover San Marino is refused, nothing published', () => {
    gdal('gdal_translate', ['-of', 'GTiff', '-a_srs', 'EPSG:4326', '-projwin', '7', '46', '8', '45', DEM, join(work, 'alps.tif')]);
    const data = join(work, 'data-alps');
    const r = cli(data, ['ingest', 'sm100', join(work, 'alps.tif'), '--quiet']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/alps\.tif: (GeoTIFF: does not cover|.*leaves \d+ of San Marino's 100 m cells without an elevation)/);
    expect(r.stderr).toContain('nothing was published');
  });
});
