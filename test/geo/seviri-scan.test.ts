/**
 * geo/seviri-scan.ts: when SEVIRI at 0° scans a point within its 15-minute
 * slot (south to north in 12 minutes, Schmetz et al. 2002).
 */
import { describe, expect, it } from 'vitest';
import { seviriScanOffsetS } from '../../geo/seviri-scan.js';

describe('seviriScanOffsetS', () => {
  it('the sub-satellite point is mid-scan, 6 min in; the scan runs south to north', () => {
    expect(seviriScanOffsetS(0, 0)).toBeCloseTo(360, 9);
    expect(seviriScanOffsetS(-30, 0)).toBeLessThan(360);
    expect(seviriScanOffsetS(30, 0)).toBeCloseTo(720 - seviriScanOffsetS(-30, 0), 9);
    for (let lat = -70; lat < 70; lat += 5) expect(seviriScanOffsetS(lat + 5, 10)).toBeGreaterThan(seviriScanOffsetS(lat, 10));
  });

  it('Italy is seen 10–11 min after the slot starts (Open-Meteo’s downloader estimates 633 s for Europe)', () => {
    expect(seviriScanOffsetS(36, 15)).toBeGreaterThan(585);
    expect(seviriScanOffsetS(47, 12)).toBeLessThan(645);
    expect(Math.abs(seviriScanOffsetS(45, 10) - 633)).toBeLessThan(5);
  });
});
