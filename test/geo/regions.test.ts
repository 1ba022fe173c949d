/**
 * isInSanMarino (generated module + turf + bbox prefilter) against the
 * original Natural Earth GeoJSON read in place from ../shared, with an
 * independent even-odd ray cast (W. R. Franklin, PNPOLY) as the reference.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { isInSanMarino, SAN_MARINO_BBOX } from '../../geo/regions.js';
import { dataFile, describeShared } from '../support/shared-data.js';

type Ring = number[][];

/** PNPOLY: even-odd rule, (x, y) = (lon, lat). Boundary points are undefined here; tests avoid them. */
function insideRing(ring: Ring, lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describeShared('San Marino border (Natural Earth, ../shared/data/boundaries)', () => {
  const smr = JSON.parse(readFileSync(dataFile('boundaries/SMR.geojson'), 'utf8'));
  const ring: Ring = smr.geometry.coordinates[0];
  const ita = JSON.parse(readFileSync(dataFile('boundaries/ITA.geojson'), 'utf8'));
  // ITA's first part (the mainland) has San Marino and the Vatican as holes.
  const itaHoles: Ring[] = ita.geometry.coordinates[0].slice(1);

  it('places known towns on the right side', () => {
    const inside: Array<[string, number, number]> = [
      ['Città di San Marino', 43.936, 12.447],
      ['Borgo Maggiore', 43.942, 12.448],
      ['Domagnano', 43.949, 12.468],
      ['Fiorentino', 43.91, 12.455],
      ['Chiesanuova', 43.92, 12.42],
    ];
    const outside: Array<[string, number, number]> = [
      ['Rimini', 44.06, 12.57],
      ['Riccione', 43.999, 12.656],
      ['San Leo', 43.896, 12.344],
      ['Novafeltria', 43.895, 12.29],
      ['Roma', 41.9, 12.5],
    ];
    for (const [name, lat, lon] of inside) {
      expect(insideRing(ring, lon, lat), `${name} (reference)`).toBe(true);
      expect(isInSanMarino(lat, lon), name).toBe(true);
    }
    for (const [name, lat, lon] of outside) {
      expect(insideRing(ring, lon, lat), `${name} (reference)`).toBe(false);
      expect(isInSanMarino(lat, lon), name).toBe(false);
    }
  });

  it('agrees with the reference on both sides of every edge, 0.1 m from the border', () => {
    const eps = 1e-6; // degrees, about 0.1 m
    for (let k = 0; k < ring.length - 1; k++) {
      const [x1, y1] = ring[k] as [number, number];
      const [x2, y2] = ring[k + 1] as [number, number];
      const len = Math.hypot(x2 - x1, y2 - y1);
      const [nx, ny] = [(y2 - y1) / len, -(x2 - x1) / len];
      for (const t of [0.25, 0.5, 0.75]) {
        const [mx, my] = [x1 + t * (x2 - x1), y1 + t * (y2 - y1)];
        const a = [mx + eps * nx, my + eps * ny] as const;
        const b = [mx - eps * nx, my - eps * ny] as const;
        const refA = insideRing(ring, a[0], a[1]);
        const refB = insideRing(ring, b[0], b[1]);
        expect(refA, `edge ${k} t=${t}: the border separates the two probes`).not.toBe(refB);
        expect(isInSanMarino(a[1], a[0]), `edge ${k} t=${t} side A`).toBe(refA);
        expect(isInSanMarino(b[1], b[0]), `edge ${k} t=${t} side B`).toBe(refB);
      }
    }
  });

  it('counts the border vertices themselves as inside', () => {
    for (const [lon, lat] of ring as Array<[number, number]>) expect(isInSanMarino(lat, lon)).toBe(true);
  });

  it('matches the reference on a 201 x 201 sweep around the country', () => {
    const [minLon, minLat, maxLon, maxLat] = [12.37, 43.88, 12.51, 44.0];
    let inside = 0;
    for (let i = 0; i <= 200; i++) {
      for (let j = 0; j <= 200; j++) {
        const lon = minLon + ((maxLon - minLon) * i) / 200;
        const lat = minLat + ((maxLat - minLat) * j) / 200;
        const ref = insideRing(ring, lon, lat);
        if (isInSanMarino(lat, lon) !== ref) throw new Error(`disagreement at ${lat}, ${lon}: reference ${ref}`);
        if (ref) inside++;
      }
    }
    // ~61 km² of a 0.14° x 0.12° (~11.2 x 13.3 km = 149 km²) box: ~41 % of the probes.
    expect(inside / 201 ** 2).toBeGreaterThan(0.36);
    expect(inside / 201 ** 2).toBeLessThan(0.46);
  });

  it('is the hole Natural Earth cuts into Italy', () => {
    const hole = itaHoles.find((h) => insideRing(h, 12.447, 43.936));
    expect(hole).toBeDefined();
    for (let i = 0; i <= 50; i++) {
      for (let j = 0; j <= 50; j++) {
        const lon = 12.38 + (0.12 * i) / 50;
        const lat = 43.885 + (0.1 * j) / 50;
        expect(isInSanMarino(lat, lon)).toBe(insideRing(hole!, lon, lat));
      }
    }
  });

  it('has a bounding box that encloses every vertex', () => {
    const [minLon, minLat, maxLon, maxLat] = SAN_MARINO_BBOX;
    for (const [lon, lat] of ring as Array<[number, number]>) {
      expect(lon).toBeGreaterThanOrEqual(minLon);
      expect(lon).toBeLessThanOrEqual(maxLon);
      expect(lat).toBeGreaterThanOrEqual(minLat);
      expect(lat).toBeLessThanOrEqual(maxLat);
    }
    expect(SAN_MARINO_BBOX).toEqual([12.385628745000105, 43.892055515, 12.492392254000094, 43.98256678600008]);
  });
});
