/**
 * The point reader applies each variable's manifest rule: `nearest` for categories, sea/land masks, and
 * static stores at any time. Expected values are worked out by hand here
 * (grid geometry, haversine written in this file), never by the reader's
 * own helpers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { HOUR, T0, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

/** 4 × 3 cells, 0.1°, centres at lon 10.0..10.3, lat 44.0..44.2. */
const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 4, ny: 3, x0: 10, y0: 44, dx: 0.1, dy: 0.1 };
const CELLS = GRID.nx * GRID.ny;

/** Great-circle distance, km, on the sphere of radius 6371.0088 km (mean Earth radius, as turf uses). */
function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

describe('weather_code is read nearest, never averaged (regression)', () => {
  const root = tempRoot('nearest');
  const times = hourlyTimes(2, T0 + 10 * HOUR); // 10:00 and 11:00
  beforeAll(async () => {
    // 10:00: code 3 everywhere. 11:00: code 61 everywhere. Column 0 vs 1 at 10:00 also differ: 0 and 2 side by side.
    const at10 = new Float32Array(CELLS).fill(3);
    const at11 = new Float32Array(CELLS).fill(61);
    for (let j = 0; j < GRID.ny; j++) {
      at10[j * GRID.nx] = 0;
      at10[j * GRID.nx + 1] = 2;
    }
    await writeProductVersion(root, input('nwp', GRID, times, {
      weather_code: { units: 'WMO 4677', precision: 1, interpolation: 'nearest', values: [at10, at11] },
      temperature_2m: { units: '°C', precision: 0.01, values: [new Float32Array(CELLS).fill(10), new Float32Array(CELLS).fill(12)] },
    }));
  });

  it('code 3 at 10:00 and 61 at 11:00 give a real code at 10:30, not 32', () => {
    const store = new TileStore(root);
    const at = (minutes: number) => store.trySample('nwp', 44.1, 10.25, T0 + 10 * HOUR + minutes * 60_000, ['weather_code']) ?? null;
    return Promise.all([store.sample('nwp', 44.1, 10.25, T0 + 10 * HOUR, ['weather_code'])]).then(() => {
      // Exactly half-way the later step wins: the code describes the hour ending at 11:00.
      expect(at(30)!.values.weather_code).toBe(61);
      expect(at(20)!.values.weather_code).toBe(3);
      expect(at(40)!.values.weather_code).toBe(61);
      // The linear variable beside it still interpolates.
      expect(store.trySample('nwp', 44.1, 10.25, T0 + 10.5 * HOUR, ['temperature_2m'])!.values.temperature_2m).toBeCloseTo(11, 6);
    });
  });

  it('codes 0 and 2 side by side give 0 or 2 (the nearer cell), never 1', async () => {
    const store = new TileStore(root);
    // Cell centres at lon 10.0 (code 0) and 10.1 (code 2); 10.04 is nearer the first, 10.06 the second.
    expect((await store.sample('nwp', 44.1, 10.04, T0 + 10 * HOUR, ['weather_code'])).values.weather_code).toBe(0);
    expect((await store.sample('nwp', 44.1, 10.06, T0 + 10 * HOUR, ['weather_code'])).values.weather_code).toBe(2);
  });

  it('answers every name asked, in order, null for one the store lacks (whatever the name)', async () => {
    const store = new TileStore(root);
    for (const names of [['temperature_2m', 'no_such', 'weather_code'], ['__proto__', 'temperature_2m']]) {
      const { values } = await store.sample('nwp', 44.1, 10.25, T0 + 10.5 * HOUR, names);
      expect(Object.keys(values)).toEqual(names);
      expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
      expect(values.temperature_2m).toBeCloseTo(11, 6);
      for (const n of names) if (n !== 'temperature_2m' && n !== 'weather_code') expect(values[n]).toBeNull();
    }
  });

  it('the manifest records the rule', () => {
    const m = new TileStore(root).manifest('nwp')!;
    expect(m.variables.weather_code!.interpolation).toBe('nearest');
    expect(m.variables.temperature_2m!.interpolation).toBe('linear');
  });
});

describe('a static store answers at any time', () => {
  const root = tempRoot('static');
  beforeAll(async () => {
    const z = Float32Array.from({ length: CELLS }, (_, c) => 100 * (c % GRID.nx));
    await writeProductVersion(root, input('dem', GRID, [], { elevation: { units: 'm', precision: 0.1, static: true, values: [z] } }));
  });

  it('with a time, without one, at any instant', async () => {
    const store = new TileStore(root);
    // lon 10.15: half-way between columns 1 (100 m) and 2 (200 m).
    for (const t of [null, Date.UTC(1925, 6, 1, 12), Date.UTC(2026, 10, 24, 12)]) {
      const s = await store.sample('dem', 44.1, 10.15, t);
      expect(s.values.elevation).toBeCloseTo(150, 6);
    }
    expect(new TileStore(root).manifest('dem')!.layout).toBe('static');
  });
});

describe('sea-masked variables take sea cells only', () => {
  const root = tempRoot('masks');
  const radiusKm = 10;
  // Land: columns 0 and 1; sea: columns 2 and 3. SST on sea cells = 20 + column + 0.1·row.
  const land = Float32Array.from({ length: CELLS }, (_, c) => (c % GRID.nx < 2 ? 1 : 0));
  const sst = (i: number, j: number) => 20 + i + 0.1 * j;
  const centre = (c: number) => ({ lat: GRID.y0 + Math.floor(c / GRID.nx) * GRID.dy, lon: GRID.x0 + (c % GRID.nx) * GRID.dx });
  // Nearest sea cell within the radius, by brute force with this file's haversine.
  const nearestSea = Float32Array.from({ length: CELLS }, (_, c) => {
    if (!land[c]) return c;
    let best = NaN;
    let bestD = Infinity;
    for (let o = 0; o < CELLS; o++) {
      if (land[o]) continue;
      const a = centre(c);
      const b = centre(o);
      const d = haversineKm(a.lat, a.lon, b.lat, b.lon);
      if (d <= radiusKm && d < bestD) [best, bestD] = [o, d];
    }
    return best;
  });
  const values = Float32Array.from({ length: CELLS }, (_, c) => {
    const src = nearestSea[c]!;
    return src >= 0 ? sst(src % GRID.nx, Math.floor(src / GRID.nx)) : NaN;
  });

  beforeAll(async () => {
    await writeProductVersion(root, {
      ...input('marine', GRID, hourlyTimes(1), {
        sea_surface_temperature: { units: '°C', precision: 0.01, mask: 'sea', searchRadiusKm: radiusKm, values: [values] },
        land_sea_mask: { units: '1', precision: 0.01, static: true, interpolation: 'nearest', values: [land] },
        nearest_sea_cell: { units: '1', precision: 1, static: true, interpolation: 'nearest', values: [nearestSea] },
      }),
      meta: { feeds: ['coastal'] },
    });
  });

  it('a point among sea cells is plain bilinear, distance 0', async () => {
    const s = await new TileStore(root).sample('marine', 44.05, 10.25, T0, ['sea_surface_temperature']);
    // Between columns 2 and 3 (fx = 0.5), rows 0 and 1 (fy = 0.5).
    expect(s.values.sea_surface_temperature).toBeCloseTo((sst(2, 0) + sst(3, 0) + sst(2, 1) + sst(3, 1)) / 4, 2);
    expect(s.distanceKm).toEqual({ sea: 0 });
  });

  it('a point whose neighbours mix land and sea uses the sea ones, renormalised', async () => {
    // lon 10.17: columns 1 (land, weight 0.3) and 2 (sea, weight 0.7); lat 44.0 exactly (row 0).
    const s = await new TileStore(root).sample('marine', 44.0, 10.17, T0, ['sea_surface_temperature']);
    expect(s.values.sea_surface_temperature).toBeCloseTo(sst(2, 0), 2);
    expect(s.distanceKm!.sea).toBe(0);
  });

  it('a point nearer a land cell says how far the sea cell is', async () => {
    // lon 10.13, lat 44.0: column 1 (land) is the nearest cell; column 2 (sea) carries the value.
    const s = await new TileStore(root).sample('marine', 44.0, 10.13, T0, ['sea_surface_temperature']);
    expect(s.values.sea_surface_temperature).toBeCloseTo(sst(2, 0), 2);
    expect(s.distanceKm!.sea).toBeCloseTo(haversineKm(44.0, 10.13, 44.0, 10.2), 2);
  });

  it('inland within the radius: the nearest sea cell, and its distance', async () => {
    // lon 10.1: column 1 is land and so is column 0; its nearest sea cell is column 2 (7.998 km away at 44 N).
    const s = await new TileStore(root).sample('marine', 44.1, 10.1, T0, ['sea_surface_temperature']);
    expect(s.values.sea_surface_temperature).toBeCloseTo(sst(2, 1), 2);
    expect(s.distanceKm!.sea).toBeCloseTo(haversineKm(44.1, 10.1, 44.1, 10.2), 2);
  });

  it('inland beyond the radius: null, never a land value', async () => {
    // lon 10.0: the sea is 16 km away, beyond 10 km.
    const s = await new TileStore(root).sample('marine', 44.1, 10.0, T0, ['sea_surface_temperature']);
    expect(s.values.sea_surface_temperature).toBeNull();
    expect(s.distanceKm!.sea).toBeNull();
  });

  it('the manifest carries the radius in the masked variable\'s entry', () => {
    const m = new TileStore(root).manifest('marine')!;
    expect(m.variables.sea_surface_temperature!.search_radius_km).toBe(radiusKm);
    expect(m.variables.land_sea_mask!.search_radius_km).toBeUndefined();
  });

  it('a masked variable without the mask helpers, or without a radius, is refused at write time', async () => {
    await expect(writeProductVersion(tempRoot('nomask'), input('marine', GRID, hourlyTimes(1), {
      sea_surface_temperature: { units: '°C', precision: 0.01, mask: 'sea', searchRadiusKm: radiusKm, values: [values] },
    }))).rejects.toThrow(/land_sea_mask/);
    await expect(writeProductVersion(tempRoot('noradius'), input('marine', GRID, hourlyTimes(1), {
      sea_surface_temperature: { units: '°C', precision: 0.01, mask: 'sea', values: [values] },
      land_sea_mask: { units: '1', precision: 0.01, static: true, interpolation: 'nearest', values: [land] },
      nearest_sea_cell: { units: '1', precision: 1, static: true, interpolation: 'nearest', values: [nearestSea] },
    }))).rejects.toThrow(/search radius/);
  });
});

describe('a cell of the kind beyond the search radius does not count, even as a neighbour (regression: 137 km on a 2° grid)', () => {
  const root = tempRoot('radius');
  const radiusKm = 10;
  /** 4 × 3 cells of 0.5°: land in columns 0 and 1 (lon 10.0, 10.5), sea in 2 and 3 (11.0, 11.5); SST 20 + column. */
  const COARSE: RegularLatLonGrid = { kind: 'regular_ll', nx: 4, ny: 3, x0: 10, y0: 44, dx: 0.5, dy: 0.5 };
  const cells = COARSE.nx * COARSE.ny;
  const land = Float32Array.from({ length: cells }, (_, c) => (c % COARSE.nx < 2 ? 1 : 0));
  // Sea cells are their own nearest; land cells are ≥ 39 km from any sea cell, beyond 10 km: none.
  const nearestSea = Float32Array.from({ length: cells }, (_, c) => (land[c] ? NaN : c));
  const sst = Float32Array.from({ length: cells }, (_, c) => (land[c] ? NaN : 20 + (c % COARSE.nx)));

  beforeAll(async () => {
    await writeProductVersion(root, input('marine', COARSE, hourlyTimes(1), {
      sea_surface_temperature: { units: '°C', precision: 0.01, mask: 'sea', searchRadiusKm: radiusKm, values: [sst] },
      land_sea_mask: { units: '1', precision: 0.01, static: true, interpolation: 'nearest', values: [land] },
      nearest_sea_cell: { units: '1', precision: 1, static: true, interpolation: 'nearest', values: [nearestSea] },
    }));
  });

  it('a point whose sea neighbour carries bilinear weight but lies beyond the radius: null', async () => {
    // lon 10.6 on row 0: column 1 (land) weight 0.8, column 2 (sea) weight 0.2, 0.4° of longitude away.
    expect(haversineKm(44, 10.6, 44, 11)).toBeGreaterThan(31);
    const s = await new TileStore(root).sample('marine', 44, 10.6, T0, ['sea_surface_temperature']);
    expect(s.values.sea_surface_temperature).toBeNull();
    expect(s.distanceKm!.sea).toBeNull();
  });

  it('a point within the radius of the same sea cell gets its value and distance', async () => {
    // lon 10.95: column 2's centre is 0.05° away.
    const d = haversineKm(44, 10.95, 44, 11);
    expect(d).toBeLessThan(radiusKm);
    const s = await new TileStore(root).sample('marine', 44, 10.95, T0, ['sea_surface_temperature']);
    expect(s.values.sea_surface_temperature).toBeCloseTo(22, 2);
    expect(s.distanceKm!.sea).toBe(0);
  });
});

describe('an interval variable, masked or not, is null before its interval (regression: masks and intervals amend one list)', () => {
  const root = tempRoot('mask-interval');
  // Steps at 00:00 and 06:00, each holding the mean of the hour ending there; land columns 0 and 1, sea 2 and 3.
  const times = [new Date(T0), new Date(T0 + 6 * HOUR)];
  const land = Float32Array.from({ length: CELLS }, (_, c) => (c % GRID.nx < 2 ? 1 : 0));
  const sea = (v: number) => Float32Array.from({ length: CELLS }, (_, c) => (land[c] ? NaN : v));
  const hourMean = { statistic: 'mean' as const, seconds: 3600 };
  beforeAll(async () => {
    await writeProductVersion(root, {
      ...input('marine', GRID, times, {
        wave_height: { units: 'm', precision: 0.01, mask: 'sea', searchRadiusKm: 10, interval: hourMean, values: [sea(1.5), sea(2.5)] },
        heat_flux: { units: 'W/m²', precision: 0.1, interval: hourMean, values: [new Float32Array(CELLS).fill(100), new Float32Array(CELLS).fill(300)] },
        temperature: { units: '°C', precision: 0.01, values: [new Float32Array(CELLS).fill(10), new Float32Array(CELLS).fill(16)] },
        land_sea_mask: { units: '1', precision: 0.01, static: true, interpolation: 'nearest', values: [land] },
        nearest_sea_cell: { units: '1', precision: 1, static: true, interpolation: 'nearest', values: [Float32Array.from({ length: CELLS }, (_, c) => (land[c] ? 2 : c))] },
      }),
      meta: { feeds: ['coastal'] },
    });
  });

  it('inside the hour ending at 06:00: the 06:00 means; at 03:00, in no interval: null; the instantaneous one still blends', async () => {
    const store = new TileStore(root);
    const names = ['wave_height', 'heat_flux', 'temperature'];
    // Between sea columns 2 and 3: every neighbour is sea.
    const at = (hours: number) => store.sample('marine', 44.1, 10.25, T0 + hours * HOUR, names);
    const late = await at(5.5);
    expect(late.values).toEqual({ wave_height: 2.5, heat_flux: 300, temperature: expect.closeTo(15.5, 6) });
    expect(late.distanceKm).toEqual({ sea: 0 });
    const mid = await at(3);
    expect(mid.values).toEqual({ wave_height: null, heat_flux: null, temperature: expect.closeTo(13, 6) });
    expect(Object.keys(mid.values)).toEqual(names);
  });
});
