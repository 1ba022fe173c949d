/**
 * The WBGT energy-balance solution (science/wbgt-physics.ts): the
 * factorised film coefficients equal wbgt.c's formulas, and the secant
 * solver finds the roots of wbgt.c's own (unfactorised) equations, checked
 * against bisection to 1e-9 K over a seeded random sample of conditions.
 */
import { describe, expect, it } from 'vitest';
import {
  diffusivityVapour,
  esatBuck,
  filmConstants,
  hCylinder,
  hCylinderFilm,
  hSphere,
  hSphereFilm,
  latentHeatEvaporation,
  LILJEGREN as C,
  liljegrenAir,
  globeSolarTerm,
  wickSolarTerm,
  dewPointBuck,
  PRANDTL,
  PSY_RATIO,
  R_AIR,
  schmidtFactor,
  solveEnergyBalance,
  solveGlobe,
  solveWetBulb,
  viscosityAir,
} from '../../science/wbgt-physics.js';
import { solarParameters } from '../../science/index.js';

/** Seeded uniform generator (mulberry32), so that a failure reproduces. */
function rng(seed: number): (lo: number, hi: number) => number {
  let a = seed;
  return (lo, hi) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return lo + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * (hi - lo);
  };
}

function bisect(map: (x: number) => number, lo: number, hi: number): number {
  let gLo = map(lo) - lo;
  for (let i = 0; i < 100; i++) {
    const mid = 0.5 * (lo + hi);
    const g = map(mid) - mid;
    if (Math.sign(g) === Math.sign(gLo)) [lo, gLo] = [mid, g];
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

describe('film coefficients', () => {
  it('equal hSphere, hCylinder and the Schmidt factor of wbgt.c (tabulated powers within 1e-8)', () => {
    const r = rng(1);
    for (let k = 0; k < 2000; k++) {
      const t = r(160, 440);
      const p = r(500, 1080);
      const u = r(0, 25);
      const f = filmConstants(p, u);
      expect(Math.abs(hSphereFilm(f, t) / hSphere(C.globe.diameterM, t, p, u) - 1)).toBeLessThan(1e-12);
      expect(Math.abs(hCylinderFilm(f, t) / hCylinder(C.wick.diameterM, t, p, u) - 1)).toBeLessThan(1e-8);
      const density = (p * 100) / (R_AIR * t);
      const exact = (PRANDTL / (viscosityAir(t) / (density * diffusivityVapour(t, p)))) ** 0.56;
      expect(Math.abs(schmidtFactor(t) / exact - 1)).toBeLessThan(1e-8);
    }
  });
});

describe('solveGlobe / solveWetBulb', () => {
  it('find the roots of the original equations within 0.005 K', () => {
    const r = rng(42);
    let worstGlobe = 0;
    let worstWick = 0;
    for (let k = 0; k < 5000; k++) {
      const tK = 273.15 + r(-30, 45);
      const rh = r(0.05, 1);
      const p = r(550, 1050);
      const u = r(0, 15);
      const cza = r(0, 1) < 0.4 ? 0 : r(0.01, 1);
      const { solar, fdir } = solarParameters(r(0, 1100), cza, 1);
      const air = liljegrenAir(tK, rh, p, u);
      const gTerm = globeSolarTerm(solar, fdir, cza);
      const wTerm = wickSolarTerm(solar, fdir, cza);
      const sigma = C.stefanBoltzmann;
      // wbgt.c's maps, written out with its unfactorised coefficients.
      const globeMap = (x: number) =>
        (air.skyGroundK4 + gTerm - (hSphere(C.globe.diameterM, 0.5 * (x + tK), p, u) / (sigma * C.globe.emissivity)) * (x - tK)) ** 0.25;
      const wickMap = (x: number) => {
        const tRef = 0.5 * (x + tK);
        const eW = esatBuck(x);
        const sc = viscosityAir(tRef) / (((p * 100) / (R_AIR * tRef)) * diffusivityVapour(tRef, p));
        const evap = (latentHeatEvaporation(tRef) / PSY_RATIO) * ((eW - air.eAir) / (p - eW)) * (PRANDTL / sc) ** 0.56;
        const fatm = sigma * C.wick.emissivity * (air.skyGroundK4 - x ** 4) + wTerm;
        return tK - evap + fatm / hCylinder(C.wick.diameterM, tRef, p, u);
      };
      const g = solveGlobe(air, gTerm, tK);
      const w = solveWetBulb(air, wTerm, true, dewPointBuck(air.eAir));
      worstGlobe = Math.max(worstGlobe, Math.abs(g - bisect(globeMap, tK - 40, tK + 90)));
      worstWick = Math.max(worstWick, Math.abs(w - bisect(wickMap, tK - 60, tK + 40)));
    }
    expect(worstGlobe).toBeLessThan(0.005);
    expect(worstWick).toBeLessThan(0.005);
  });

  it('reach the same root from a warm start, and remember root and slope', () => {
    const air = liljegrenAir(303.15, 0.5, 1000, 2);
    const cold = solveWetBulb(air, 300, true, dewPointBuck(air.eAir));
    const memory = new Float64Array([cold + 1.5, -3, NaN, NaN]);
    const warm = solveWetBulb(air, 300, true, dewPointBuck(air.eAir), memory, 0);
    expect(Math.abs(warm - cold)).toBeLessThan(0.003);
    expect(memory[0]).toBe(warm);
    expect(memory[1]).toBeLessThan(0);
    expect(memory[2]).toBeNaN();
  });

  it("fall back to wbgt.c's relaxed iteration when the secant cannot proceed, and give NaN without a root", () => {
    // A map whose secant slope is positive at the start (g increasing there): the relaxed iteration still converges.
    const map = (x: number) => (x < 300 ? 300 + 0.5 * (x - 300) + 3 : 301.5);
    expect(Math.abs(solveEnergyBalance(map, 280, 0.5) - 301.5)).toBeLessThan(0.05);
    expect(solveEnergyBalance(() => NaN, 280, -4)).toBeNaN();
  });
});
