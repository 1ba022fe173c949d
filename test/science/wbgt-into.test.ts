/**
 * The allocation-free WBGT of a weather answer (science/wbgt.ts wbgtInto,
 * wbgt-physics.ts liljegrenAirInto): the same numbers as the object API's
 * separate path (wbgtDetail's parts, each WBGT summed from its own globe and
 * wick), and nothing carried from one call to the next through the state
 * they reuse.
 */
import { describe, expect, it } from 'vitest';
import { solarGeometry } from '../../geo/solar.js';
import { wbgtDetail, wbgtInto } from '../../science/index.js';
import { liljegrenAir, liljegrenAirInto } from '../../science/wbgt-physics.js';
import { mulberry32 } from '../../bench/prng.js';

/** Seeded uniform draws in [lo, hi) (bench/prng's mulberry32), so that a failure reproduces. */
function rng(seed: number): (lo: number, hi: number) => number {
  const next = mulberry32(seed);
  return (lo, hi) => lo + next() * (hi - lo);
}

function randomCase(r: (lo: number, hi: number) => number) {
  const lat = r(36, 47);
  const lon = r(6, 19);
  const time = new Date(Date.UTC(2026, 0, 1) + Math.floor(r(0, 365 * 24)) * 3_600_000);
  return {
    time,
    sun: solarGeometry(time, lat, lon),
    lat,
    lon,
    temperature: r(-5, 40),
    relativeHumidity: r(10, 100),
    pressure: r(800, 1040),
    windSpeed: r(0, 15),
    windHeight: 10,
    shortwaveRadiation: r(0, 1) < 0.4 ? 0 : r(0, 1000),
  };
}

describe('wbgtInto', () => {
  it("gives wbgtDetail's sun and shade WBGT to the bit, whatever came before", () => {
    const r = rng(7);
    const cases = Array.from({ length: 500 }, () => randomCase(r));
    const out = new Float64Array(2);
    const seen: number[][] = [];
    for (const c of cases) {
      wbgtInto(out, c.sun, c.temperature, c.relativeHumidity, c.pressure, c.windSpeed, c.windHeight, c.shortwaveRadiation);
      const d = wbgtDetail(c);
      expect([out[0], out[1]]).toEqual([d.sun.wbgt, d.shade.wbgt]);
      seen.push([out[0]!, out[1]!]);
    }
    // The same cases again in reverse order: the reused state keeps nothing from the previous call.
    for (let k = cases.length - 1; k >= 0; k--) {
      const c = cases[k]!;
      wbgtInto(out, c.sun, c.temperature, c.relativeHumidity, c.pressure, c.windSpeed, c.windHeight, c.shortwaveRadiation);
      expect([out[0], out[1]]).toEqual(seen[k]);
    }
  });

  it('writes NaN for a non-finite input, a zero wind height or pressure', () => {
    const c = randomCase(rng(3));
    const out = new Float64Array([1, 2]);
    wbgtInto(out, c.sun, NaN, 50, 1000, 2, 10, 500);
    expect([...out]).toEqual([NaN, NaN]);
    out.set([1, 2]);
    wbgtInto(out, c.sun, 20, 50, 0, 2, 10, 500);
    expect([...out]).toEqual([NaN, NaN]);
    out.set([1, 2]);
    wbgtInto(out, c.sun, 20, 50, 1000, 2, 0, 500);
    expect([...out]).toEqual([NaN, NaN]);
  });
});

describe('liljegrenAirInto', () => {
  it('fills a reused object with what liljegrenAir makes', () => {
    const air = liljegrenAir(300, 0.5, 1000, 3);
    for (const [t, rh, p, u] of [[263.15, 0.9, 850, 0], [310.15, 0.2, 1020, 12], [288.15, 0.6, 950, 1.5]] as const) {
      expect(liljegrenAirInto(air, t, rh, p, u)).toEqual(liljegrenAir(t, rh, p, u));
    }
  });
});
