import { describe, expect, it } from 'vitest';
import { solarPosition } from '../../../science/index.js';
import { cellCoords, cosZenith, sunInstant } from '../../../ingest/indices/sun.js';
import { periodHoursAt, stepTimings } from '../../../ingest/indices/timeline.js';

describe('per-instant solar geometry', () => {
  it('gives cos z of geo/solar.ts for any place and time (|Δ| < 1e-8)', () => {
    let worst = 0;
    for (let k = 0; k < 400; k++) {
      // Spread over years, hours, the whole globe (deterministic).
      const time = new Date(Date.UTC(1990 + (k % 50), k % 12, 1 + (k % 28), k % 24, (k * 7) % 60));
      const lat = -89 + ((k * 37) % 179);
      const lon = -180 + ((k * 53) % 360);
      const c = Math.cos((solarPosition(time, lat, lon).zenith * Math.PI) / 180);
      const sun = sunInstant(time);
      const mine = cosZenith(sun, Math.sin((lat * Math.PI) / 180), Math.cos((lat * Math.PI) / 180), lon);
      worst = Math.max(worst, Math.abs(mine - c));
    }
    expect(worst).toBeLessThan(1e-8);
  });

  it('takes each cell at its geographic position, rotated grids included', () => {
    const c = cellCoords({ kind: 'regular_ll', nx: 3, ny: 2, x0: 10, y0: 40, dx: 1, dy: 0.5 }, 0, 6);
    expect([...c.latDeg]).toEqual([40, 40, 40, 40.5, 40.5, 40.5]);
    expect([...c.lonDeg]).toEqual([10, 11, 12, 10, 11, 12]);
    const r = cellCoords({ kind: 'rotated_ll', nx: 1, ny: 1, x0: 0, y0: 0, dx: 0.02, dy: 0.02, southPoleLat: -47, southPoleLon: 10, angle: 0 }, 0, 1);
    // COSMO-2I: rotated (0, 0) is 43°N 10°E.
    expect(r.latDeg[0]).toBeCloseTo(43, 6);
    expect(r.lonDeg[0]).toBeCloseTo(10, 6);
  });
});

describe('radiation windows', () => {
  it('are the gap to the previous time, the first taking the next gap', () => {
    const ms = [0, 3, 4, 7].map((h) => h * 3_600_000);
    expect(ms.map((_, k) => periodHoursAt(ms, k))).toEqual([3, 3, 1, 3]);
    expect(periodHoursAt([0], 0)).toBe(1);
    const steps = stepTimings([new Date('2024-07-15T12:00:00Z'), new Date('2024-07-15T13:00:00Z')]);
    expect(steps[1]!.periodHours).toBe(1);
    // The Sun at the middle of the window (12:30) is the geometry of 12:30.
    const mid = sunInstant(new Date('2024-07-15T12:30:00Z'));
    expect(steps[1]!.atMid).toEqual(mid);
  });
});
