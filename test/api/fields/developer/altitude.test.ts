/**
 * The Developer fields 1000 m above the model orography, end to end: a store
 * with surface pressure and elevation written by the production writer from
 * constant fields, a request with `alt` above the grid. The expected WBGT and
 * ET0 take the station pressure moved to `alt` by the hypsometric equation
 * written out here, and the science library's wbgt / et0Hourly; the route
 * must not report the grid's pressure at the point (as it would if the
 * builder passed no grid elevation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../../api/app.js';
import { withCatalogue } from '../../../../ingest/products/catalogue-input.js';
import { writeProductVersion } from '../../../../tiles/write/writer.js';
import type { VariableInput } from '../../../../tiles/types.js';
import { dewPoint, et0Hourly, wbgt } from '../../../../science/index.js';
import { HOUR_MS, NWP_GRID, T0_MS, installTestKey, keyedInject, tempDataDir, testAccess } from '../../tile-fixture.js';

/** The grid's values, the same in every cell and hour; exact at the stored precisions. */
const G = { t: 28, rh: 40, sp: 960, z: 200, sw: 750, u: 3, v: 4, cloud: 10 };
const ALT = G.z + 1000;
const STEPS = 24;
/** 10:00 UTC on 21 June 2024: the Sun high over Tuscany. */
const NOW_MS = T0_MS + 10 * HOUR_MS;
const LAT = 43.2;
const LON = 11.25;

const cells = NWP_GRID.nx * NWP_GRID.ny;
const constant = (v: number, precision: number, units: string): VariableInput => ({
  units,
  precision,
  values: Array.from({ length: STEPS }, () => new Float32Array(cells).fill(v)),
});

/**
 * Station pressure at z2 from the pressure at z1, hypsometric equation
 * (Wallace & Hobbs 2006, Atmospheric Science, eq. 3.29):
 *   z2 − z1 = (R_d T̄ / g) ln(p1 / p2)  ⇒  p2 = p1 exp(−g (z2 − z1) / (R_d T̄)),
 * T̄ the layer's mean temperature, here the grid's 2 m temperature less half
 * the standard lapse of 6.5 K/km (ISO 2533:1975) over the layer.
 */
function hypsometricHpa(p1Hpa: number, z1M: number, z2M: number, t1C: number): number {
  const g = 9.80665; // m s⁻², standard gravity (CGPM 1901)
  const rd = 287.05; // J kg⁻¹ K⁻¹, dry air (WMO-No. 8)
  const tMeanK = t1C + 273.15 - (0.0065 * (z2M - z1M)) / 2;
  return p1Hpa * Math.exp((-g * (z2M - z1M)) / (rd * tMeanK));
}

describe('Developer fields at alt 1000 m above the grid', () => {
  const data = tempDataDir();
  let app: FastifyInstance;

  beforeAll(async () => {
    await installTestKey(data.dir, 'developer');
    await writeProductVersion(data.dir, withCatalogue({
      product: 'nwp',
      grid: NWP_GRID,
      times: Array.from({ length: STEPS }, (_, k) => new Date(T0_MS + k * HOUR_MS)),
      source: { files: ['fixture-altitude'], model: 'fixture' },
      variables: {
        temperature_2m: constant(G.t, 0.01, '°C'),
        relative_humidity_2m: constant(G.rh, 0.1, '%'),
        surface_pressure: constant(G.sp, 0.01, 'hPa'),
        wind_u_10m: constant(G.u, 0.01, 'm/s'),
        wind_v_10m: constant(G.v, 0.01, 'm/s'),
        shortwave_radiation: constant(G.sw, 0.1, 'W/m²'),
        cloud_cover: constant(G.cloud, 0.1, '%'),
        precipitation: constant(0, 0.01, 'mm'),
        elevation: { units: 'm', precision: 0.1, static: true, values: [new Float32Array(cells).fill(G.z)] },
      },
    }));
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => NOW_MS });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('WBGT and ET0 take the surface pressure moved to the point by the hypsometric equation', async () => {
    const res = await keyedInject(app, `/api/v1/weather.php?lat=${LAT}&lon=${LON}&alt=${ALT}&fields=wbgt,et0`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Date.parse(body.valid_time)).toBe(NOW_MS);

    // The point's air: 6.5 K colder (the standard lapse over 1000 m), the grid's RH kept.
    const t = G.t - 6.5;
    const p = hypsometricHpa(G.sp, G.z, ALT, G.t);
    expect(p).toBeGreaterThan(845); // ≈ 850 hPa: 110 hPa below the grid's
    const wind = Math.hypot(G.u, G.v);
    const sunAt = new Date(NOW_MS - HOUR_MS / 2); // the middle of the hour the radiation averages

    const w = wbgt({ time: sunAt, lat: LAT, lon: LON, temperature: t, relativeHumidity: G.rh, pressure: p, windSpeed: wind, windHeight: 10, shortwaveRadiation: G.sw });
    expect(Math.abs(body.wbgt.sun - w.sun)).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(Math.abs(body.wbgt.shade - w.shade)).toBeLessThanOrEqual(0.05 + 1e-9);

    const et0 = et0Hourly({
      periodStart: new Date(NOW_MS - HOUR_MS),
      periodHours: 1,
      lat: LAT,
      lon: LON,
      elevationM: ALT,
      temperatureC: t,
      dewPointC: dewPoint(t, G.rh),
      shortwaveRadiation: G.sw,
      windSpeed: wind,
      windHeightM: 10,
      pressureKpa: p / 10,
    });
    expect(body.et0.period_hours).toBe(1);
    expect(Math.abs(body.et0.value - et0)).toBeLessThanOrEqual(0.005 + 1e-9);
  });
});
