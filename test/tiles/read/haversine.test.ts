/**
 * The point reader's great-circle distance (tiles/read/point-rules.ts haversineKm) is @turf/distance written out:
 * the same bits, so the mask search radius and distance_km agree with the ingest (ingest/masks.ts calls turf).
 * Compared with turf itself at points drawn over Italy, across the antimeridian and at the poles.
 */
import { describe, expect, it } from 'vitest';
import { distance } from '@turf/distance';
import { haversineKm } from '../../../tiles/read/point-rules.js';

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe('haversineKm', () => {
  it('equals @turf/distance in kilometres bit for bit', () => {
    const rnd = lcg(7);
    const pairs: Array<[number, number, number, number]> = [
      [44.2, 10.3, 44.2, 10.3],
      [0, 179.9, 0, -179.9],
      [89.99, 0, -89.99, 180],
      [-33.9, 151.2, 51.5, -0.13],
    ];
    for (let n = 0; n < 20_000; n++) {
      const lat = 36 + rnd() * 11;
      const lon = 6 + rnd() * 13;
      // Mostly a cell or a few away (the reader's use), sometimes anywhere on Earth.
      pairs.push(n % 10 ? [lat, lon, lat + (rnd() - 0.5) * 0.5, lon + (rnd() - 0.5) * 0.5] : [lat, lon, rnd() * 180 - 90, rnd() * 360 - 180]);
    }
    let differ = 0;
    for (const [la1, lo1, la2, lo2] of pairs) {
      if (!Object.is(haversineKm(la1, lo1, la2, lo2), distance([lo1, la1], [lo2, la2], { units: 'kilometers' }))) differ++;
    }
    expect(differ).toBe(0);
  });

  it('is the great-circle distance: a degree of latitude is 111.195 km', () => {
    // 6371.0088 km × π / 180.
    expect(haversineKm(44, 10, 45, 10)).toBeCloseTo(111.19508, 4);
  });
});
