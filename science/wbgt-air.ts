/**
 * Properties of air and the convective coefficients of the Liljegren et al.
 * (2008) WBGT model (Argonne wbgt.c v1.1): constants, saturation vapour
 * pressure, viscosity, conductivity, diffusivity, latent heat, sky
 * emissivity, and the heat-transfer coefficients of the globe (sphere) and
 * the wick (cylinder). The energy-balance solvers are in ./wbgt-physics.ts.
 *
 * Liljegren J.C., Carhart R.A., Lawday P., Tschopp S., Sharp R. (2008)
 * Modeling the wet bulb globe temperature using standard meteorological
 * measurements. J. Occup. Environ. Hyg. 5(10):645-655,
 * doi:10.1080/15459620802310770. Bird, Stewart & Lightfoot (1960) Transport
 * Phenomena (BSL). Temperatures in kelvin and pressures in hPa, as in wbgt.c.
 */

/** Constants of wbgt.c (Liljegren 2008), SI units. */
export const LILJEGREN = {
  /** W m⁻² K⁻⁴ (value used by wbgt.c) */
  stefanBoltzmann: 5.6696e-8,
  /** J kg⁻¹ K⁻¹, specific heat of dry air */
  cp: 1003.5,
  /** g mol⁻¹ */
  molarMassAir: 28.97,
  /** g mol⁻¹ */
  molarMassWater: 18.015,
  /** J kmol⁻¹ K⁻¹ */
  gasConstant: 8314.34,
  /** wick: emissivity, albedo, diameter m, length m */
  wick: { emissivity: 0.95, albedo: 0.4, diameterM: 0.007, lengthM: 0.0254 },
  /** standard 2-inch black globe */
  globe: { emissivity: 0.95, albedo: 0.05, diameterM: 0.0508 },
  /** ground surface */
  surface: { emissivity: 0.999, albedo: 0.45 },
  /** m/s, floor on wind in the Reynolds number */
  minSpeedMs: 0.13,
  /** K: wbgt.c's relaxed iteration (the solvers' fallback) stops when successive estimates differ by less */
  convergenceK: 0.02,
  /** of that fallback iteration */
  maxIterations: 500,
} as const;

const C = LILJEGREN;
/** Gas constant of air, J kg⁻¹ K⁻¹. */
export const R_AIR = C.gasConstant / C.molarMassAir;
/** Prandtl number of air. */
export const PRANDTL = C.cp / (C.cp + 1.25 * R_AIR);
/** cp·M_air/M_h2o, the psychrometric ratio of wbgt.c. */
export const PSY_RATIO = (C.cp * C.molarMassAir) / C.molarMassWater;

/**
 * Saturation vapour pressure over water, Buck (1981) eq. 3 with the 1.004
 * enhancement factor for moist air (pressure > 800 hPa), as wbgt.c esat().
 *
 * @param tK temperature, K
 * @returns hPa
 */
export function esatBuck(tK: number): number {
  return 1.004 * 6.1121 * Math.exp((17.502 * (tK - 273.15)) / (tK - 32.18));
}

/** Dew point (K) from vapour pressure (hPa), inverse of {@link esatBuck}. */
export function dewPointBuck(eHpa: number): number {
  const z = Math.log(eHpa / (6.1121 * 1.004));
  return 273.15 + (240.97 * z) / (17.502 - z);
}

/** Dynamic viscosity of air, kg m⁻¹ s⁻¹ (Bird, Stewart & Lightfoot 1960, p. 23). */
export function viscosityAir(tK: number): number {
  const sigma = 3.617;
  const epsKappa = 97.0;
  const omega = ((tK / epsKappa - 2.9) / 0.4) * -0.034 + 1.048;
  return (2.6693e-6 * Math.sqrt(C.molarMassAir * tK)) / (sigma * sigma * omega);
}

/** Thermal conductivity of air, W m⁻¹ K⁻¹ (BSL p. 257, Eucken). */
export function thermalConductivityAir(tK: number): number {
  return (C.cp + 1.25 * R_AIR) * viscosityAir(tK);
}

/** Constant part of the BSL diffusivity: a Pc^⅓ Tc^(5/12) √(1/Ma + 1/Mw) with the critical points of air and water. */
const DIFFUSIVITY_FACTOR =
  3.64e-4 * Math.cbrt(36.4 * 218) * (132 * 647.3) ** (5 / 12) * Math.sqrt(1 / 28.97 + 1 / 18.015);
const T_CRIT_12 = Math.sqrt(132 * 647.3);

/** Diffusivity of water vapour in air, m² s⁻¹ (BSL p. 505). */
export function diffusivityVapour(tK: number, pressureHpa: number): number {
  return ((DIFFUSIVITY_FACTOR * (tK / T_CRIT_12) ** 2.334) / (pressureHpa / 1013.25)) * 1e-4;
}

/** Latent heat of evaporation, J kg⁻¹, valid 283-313 K (Van Wylen & Sonntag, Table A.1.1). */
export function latentHeatEvaporation(tK: number): number {
  return ((313.15 - tK) / 30) * -71100 + 2.4073e6;
}

/** Atmospheric emissivity ε = 0.575 e^0.143 (e in hPa; Oke 1987 p. 373). */
export function atmosphericEmissivity(tK: number, rhFraction: number): number {
  return 0.575 * (rhFraction * esatBuck(tK)) ** 0.143;
}

function airDensity(tK: number, pressureHpa: number): number {
  return (pressureHpa * 100) / (R_AIR * tK);
}

/** Pr^⅓ and Pr^0.44 of the two Nusselt correlations. */
export const PR_SPHERE = PRANDTL ** 0.3333;
export const PR_CYLINDER = PRANDTL ** (1 - 0.56);

/** Convective coefficient of a sphere, W m⁻² K⁻¹: Nu = 2 + 0.6 Re^½ Pr^⅓ (BSL p. 409). */
export function hSphere(diameterM: number, tK: number, pressureHpa: number, speedMs: number): number {
  const mu = viscosityAir(tK);
  const re = (Math.max(speedMs, C.minSpeedMs) * airDensity(tK, pressureHpa) * diameterM) / mu;
  const nu = 2 + 0.6 * Math.sqrt(re) * PR_SPHERE;
  return (nu * (C.cp + 1.25 * R_AIR) * mu) / diameterM;
}

/** Convective coefficient of a cylinder in cross flow, W m⁻² K⁻¹ (Bedingfield & Drew 1950, eq. 32). */
export function hCylinder(diameterM: number, tK: number, pressureHpa: number, speedMs: number): number {
  const mu = viscosityAir(tK);
  const re = (Math.max(speedMs, C.minSpeedMs) * airDensity(tK, pressureHpa) * diameterM) / mu;
  const nu = 0.281 * re ** (1 - 0.4) * PR_CYLINDER;
  return (nu * (C.cp + 1.25 * R_AIR) * mu) / diameterM;
}

/**
 * The film coefficients factorised for a fixed pressure and wind, so that a
 * solver evaluates only functions of the film temperature T (exact algebra of
 * {@link hSphere}, {@link hCylinder} and the wick's Schmidt factor):
 *
 *   hSphere   = k/D [2 μ + 0.6 Pr^⅓ √(u ρ′ D) √(μ/T)],          ρ′ = 100 p / R (ρ = ρ′/T)
 *   hCylinder = k/D · 0.281 Pr^0.44 (u ρ′ D)^0.6 · μ^0.4 T^−0.6,   k/D = (cp + 1.25 R)/D
 *   (Pr/Sc)^0.56 = (Pr ρ Dv / μ)^0.56, and ρ Dv does not depend on p (ρ ∝ p, Dv ∝ 1/p)
 *
 * The two non-integer powers of T are tabulated once, 150–450 K every
 * 0.05 K, and interpolated linearly (relative error < 1e-8, checked in
 * test/science/wbgt-solver.test.ts); outside the table they are computed.
 */
export interface FilmConstants {
  /** k/D · 2, for the sphere's conduction term. */
  sphereConduction: number;
  /** k/D · 0.6 Pr^⅓ √(u ρ′ D). */
  sphereForced: number;
  /** k/D · 0.281 Pr^0.44 (u ρ′ D_wick)^0.6. */
  cylinder: number;
}

/** @param pressureHpa hPa  @param speedMs wind at 2 m, m/s (floored at 0.13 as in the Reynolds number) */
export function filmConstants(pressureHpa: number, speedMs: number): FilmConstants {
  return filmConstantsInto({ sphereConduction: 0, sphereForced: 0, cylinder: 0 }, pressureHpa, speedMs);
}

/** {@link filmConstants} written into `k` (a caller's object reused: its numbers are updated in place, nothing allocated), returned. */
export function filmConstantsInto(k: FilmConstants, pressureHpa: number, speedMs: number): FilmConstants {
  const u = Math.max(speedMs, C.minSpeedMs);
  const rhoPrime = (pressureHpa * 100) / R_AIR;
  const kg = (C.cp + 1.25 * R_AIR) / C.globe.diameterM;
  const kw = (C.cp + 1.25 * R_AIR) / C.wick.diameterM;
  k.sphereConduction = 2 * kg;
  k.sphereForced = kg * 0.6 * PR_SPHERE * Math.sqrt(u * rhoPrime * C.globe.diameterM);
  k.cylinder = kw * 0.281 * PR_CYLINDER * (u * rhoPrime * C.wick.diameterM) ** 0.6;
  return k;
}

/** Globe coefficient at film temperature tK, W m⁻² K⁻¹ (= hSphere). */
export function hSphereFilm(k: FilmConstants, tK: number): number {
  const mu = viscosityAir(tK);
  return k.sphereConduction * mu + k.sphereForced * Math.sqrt(mu / tK);
}

/** Wick coefficient at film temperature tK, W m⁻² K⁻¹ (= hCylinder). */
export function hCylinderFilm(k: FilmConstants, tK: number): number {
  return k.cylinder * lookup(filmTables().cylinder, tK, cylinderFactorExact);
}

/** (Pr/Sc)^0.56 of the wick's mass transfer at film temperature tK (pressure-free). */
export function schmidtFactor(tK: number): number {
  return lookup(filmTables().schmidt, tK, schmidtFactorExact);
}

/** μ^0.4 T^−0.6 */
function cylinderFactorExact(tK: number): number {
  return viscosityAir(tK) ** 0.4 * tK ** -0.6;
}

/** (Pr ρ Dv / μ)^0.56 at any pressure (1013.25 hPa used, it cancels). */
function schmidtFactorExact(tK: number): number {
  const rhoDv = airDensity(tK, 1013.25) * diffusivityVapour(tK, 1013.25);
  return ((PRANDTL * rhoDv) / viscosityAir(tK)) ** 0.56;
}

const FILM_T0_K = 150;
const FILM_STEP_K = 0.05;
const FILM_POINTS = 6001;
let film: { cylinder: Float64Array; schmidt: Float64Array } | undefined;

/** The tables, built on first use (12k evaluations, well under a millisecond of work). */
function filmTables(): { cylinder: Float64Array; schmidt: Float64Array } {
  if (!film) {
    const cylinder = new Float64Array(FILM_POINTS);
    const schmidt = new Float64Array(FILM_POINTS);
    for (let i = 0; i < FILM_POINTS; i++) {
      const t = FILM_T0_K + i * FILM_STEP_K;
      cylinder[i] = cylinderFactorExact(t);
      schmidt[i] = schmidtFactorExact(t);
    }
    film = { cylinder, schmidt };
  }
  return film;
}

function lookup(table: Float64Array, tK: number, exact: (tK: number) => number): number {
  const x = (tK - FILM_T0_K) / FILM_STEP_K;
  const i = Math.floor(x);
  if (!(i >= 0 && i < FILM_POINTS - 1)) return exact(tK);
  const a = table[i]!;
  return a + (x - i) * (table[i + 1]! - a);
}
