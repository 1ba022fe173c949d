import { describe, expect, it } from 'vitest';
import { solarGeometry, solarPosition, cosSolarZenith, isDaytime, SunAtPoint, type SolarGeometry } from '../../geo/solar.js';

/** A geometry's six values (the azimuth and declination are read from the object as the fields would). */
const valuesOf = (g: SolarGeometry) => ({ zenith: g.zenith, azimuth: g.azimuth, declination: g.declination, hourAngle: g.hourAngle, distanceAu: g.distanceAu, equationOfTimeMin: g.equationOfTimeMin });

describe('solarPosition', () => {
  it('reproduces the NREL SPA worked example (Reda & Andreas 2004, Table A4.1)', () => {
    // 2003-10-17 12:30:30 local (UTC-7), 39.742476 N, 105.1786 W. SPA gives the
    // refracted topocentric zenith 50.11162° (P = 820 hPa, T = 11 °C) and azimuth
    // 194.34024°. SPA's own refraction formula at e0 ≈ 39.87° gives
    // (820/1010)(283/284)·1.02/(60 tan(40.101°)) = 0.016327°, so the geometric
    // topocentric zenith is 50.11162 + 0.01633 = 50.12795°.
    const p = solarPosition(new Date('2003-10-17T19:30:30Z'), 39.742476, -105.1786);
    expect(Math.abs(p.zenith - 50.12795)).toBeLessThan(0.01);
    expect(Math.abs(p.azimuth - 194.34024)).toBeLessThan(0.01);
  });

  it('gives the declination near 0 at the March equinox and +23.44 at the June solstice', () => {
    // Equinox 2024-03-20 03:06 UTC; solstice 2024-06-20 20:51 UTC (USNO).
    expect(Math.abs(solarGeometry(new Date('2024-03-20T03:06:00Z'), 0, 0).declination)).toBeLessThan(0.005);
    expect(Math.abs(solarGeometry(new Date('2024-06-20T20:51:00Z'), 0, 0).declination - 23.4393)).toBeLessThan(0.005);
  });

  it('puts the Sun due south at solar noon in the northern mid-latitudes', () => {
    // Rome, 2024-07-15: equation of time ≈ −6 min, so solar noon ≈ 12:00 + 6 − 4·12.4964/60·60 s.
    const g = solarGeometry(new Date('2024-07-15T11:16:00Z'), 41.9028, 12.4964);
    expect(Math.abs(g.hourAngle)).toBeLessThan(0.3);
    expect(Math.abs(g.azimuth - 180)).toBeLessThan(0.6);
    expect(g.equationOfTimeMin).toBeGreaterThan(-6.5);
    expect(g.equationOfTimeMin).toBeLessThan(-5.5);
    // Noon zenith = latitude − declination.
    expect(Math.abs(g.zenith - (41.9028 - g.declination))).toBeLessThan(0.01);
  });

  it('is below the horizon at night and cosSolarZenith clamps to 0', () => {
    const t = new Date('2024-07-15T23:00:00Z');
    expect(solarPosition(t, 41.9, 12.5).zenith).toBeGreaterThan(90);
    expect(cosSolarZenith(t, 41.9, 12.5)).toBe(0);
    expect(isDaytime(t, 41.9, 12.5)).toBe(false);
    expect(isDaytime(new Date('2024-07-15T11:00:00Z'), 41.9, 12.5)).toBe(true);
  });

  it('puts sunrise in Rome on 2024-07-15 at about 03:50 UTC (05:50 CEST) ± 2 min', () => {
    const up = (m: number) => isDaytime(new Date(Date.UTC(2024, 6, 15, 3, m)), 41.9028, 12.4964);
    expect(up(48)).toBe(false);
    expect(up(52)).toBe(true);
  });

  it('keeps azimuth in 0..360 and the Earth–Sun distance in 0.983..1.017 AU', () => {
    for (let h = 0; h < 24 * 365; h += 97) {
      const g = solarGeometry(new Date(Date.UTC(2025, 0, 1) + h * 3_600_000), -33.9, 151.2);
      expect(g.azimuth).toBeGreaterThanOrEqual(0);
      expect(g.azimuth).toBeLessThan(360);
      expect(g.distanceAu).toBeGreaterThan(0.983);
      expect(g.distanceAu).toBeLessThan(1.017);
    }
  });
});

describe('the instant shared by many points', () => {
  it('gives each point and instant the same geometry whatever was asked before (instants interleaved)', () => {
    const instants = ['2026-11-27T11:20:00Z', '2026-11-27T10:50:00Z', '2026-06-21T04:00:00Z'].map((iso) => Date.parse(iso));
    const points = Array.from({ length: 40 }, (_, k) => [36 + (k * 0.27) % 11, 6.5 + (k * 0.61) % 12.5] as const);
    // First each instant for every point in a row, then the instants in turn per point (as answers ask them).
    const inRows = instants.map((ms) => points.map(([lat, lon]) => solarGeometry(new Date(ms), lat, lon)));
    points.forEach(([lat, lon], k) => {
      const sun = new SunAtPoint(lat, lon);
      instants.forEach((ms, i) => {
        expect(valuesOf(sun.at(ms))).toEqual(valuesOf(inRows[i]![k]!));
        expect(valuesOf(solarGeometry(new Date(ms), lat, lon))).toEqual(valuesOf(inRows[i]![k]!));
      });
    });
    // The instants differ: declination 2026-11-27 about −21.2°, 2026-06-21 about +23.4°.
    expect(inRows[0]![0]!.declination).toBeCloseTo(-21.2, 0);
    expect(inRows[2]![0]!.declination).toBeCloseTo(23.4, 0);
    expect(inRows[0]![0]!.zenith).not.toBe(inRows[1]![0]!.zenith);
  });
});

describe('SunAtPoint: the Sun of one answer', () => {
  // Rome at a valid time, the middle of its radiation step, and a third instant (not kept).
  const at = ['2024-06-21T12:00:00Z', '2024-06-21T11:30:00Z', '2024-12-21T07:00:00Z'].map((iso) => Date.parse(iso));

  it('gives for each instant what solarGeometry gives, asked in any order and again', () => {
    const sun = new SunAtPoint(41.9028, 12.4964);
    for (const ms of [...at, ...at.slice().reverse(), ...at]) expect(valuesOf(sun.at(ms))).toEqual(valuesOf(solarGeometry(new Date(ms), 41.9028, 12.4964)));
  });

  it('keeps the first two instants: asked again, the same object', () => {
    const sun = new SunAtPoint(41.9028, 12.4964);
    const noon = sun.at(at[0]!);
    const mid = sun.at(at[1]!);
    sun.at(at[2]!);
    expect(sun.at(at[0]!)).toBe(noon);
    expect(sun.at(at[1]!)).toBe(mid);
    // 12 UTC in June, 50 min after solar noon: a high Sun, never above its noon zenith 41.9 − 23.44 = 18.46°; a December morning, low.
    expect(noon.zenith).toBeGreaterThan(18.46);
    expect(noon.zenith).toBeLessThan(25);
    expect(sun.at(at[2]!).zenith).toBeGreaterThan(80);
  });
});
