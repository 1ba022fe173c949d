/**
 * Heat-transfer physics of the Liljegren et al. (2008) WBGT model: properties
 * of air, convective coefficients of the globe (sphere) and the wick
 * (cylinder), and the two energy-balance solvers.
 *
 * Liljegren J.C., Carhart R.A., Lawday P., Tschopp S., Sharp R. (2008)
 * Modeling the wet bulb globe temperature using standard meteorological
 * measurements. J. Occup. Environ. Hyg. 5(10):645-655,
 * doi:10.1080/15459620802310770; Argonne wbgt.c v1.1. Constants and the
 * fixed-point iteration (relaxation 0.9/0.1, stop at |ΔT| < 0.02 K) follow
 * wbgt.c so results agree with it to its own convergence.
 *
 * Temperatures here are in kelvin and pressures in hPa, as in wbgt.c.
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
  /** K, iteration stops when successive estimates differ by less */
  convergenceK: 0.02,
  maxIterations: 500,
} as const;

const C = LILJEGREN;
const R_AIR = C.gasConstant / C.molarMassAir;
/** Prandtl number of air. */
const PRANDTL = C.cp / (C.cp + 1.25 * R_AIR);
/** cp·M_air/M_h2o, the psychrometric ratio of wbgt.c. */
const PSY_RATIO = (C.cp * C.molarMassAir) / C.molarMassWater;

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
const PR_SPHERE = PRANDTL ** 0.3333;
const PR_CYLINDER = PRANDTL ** (1 - 0.56);

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

/** Radiative and wind environment shared by the two solvers. */
export interface LiljegrenEnvironment {
  /** Air temperature, K. */
  tK: number;
  /** Relative humidity, fraction 0..1. */
  rh: number;
  /** Pressure, hPa. */
  pressureHpa: number;
  /** Wind speed at 2 m, m/s. */
  speedMs: number;
  /** Global horizontal irradiance used, W m⁻². */
  solarWm2: number;
  /** Fraction of the irradiance in the direct beam, 0..0.9. */
  fdir: number;
  /** Cosine of the solar zenith angle. */
  cza: number;
}

/**
 * Root of T = map(T) (temperatures in K): the equilibrium both energy
 * balances below are written as.
 *
 * wbgt.c relaxes the fixed-point iteration (T ← 0.9 T + 0.1 map(T)) until two
 * estimates differ by less than 0.02 K; because map′ is about −1 to −6 there,
 * that takes 20–60 evaluations and stops up to ~0.015 K short of the root.
 * Here the same equation g(T) = map(T) − T is solved by the secant method
 * (g is smooth and monotone, g′ ≈ −2…−7), starting from wbgt.c's own first
 * estimate with a step of g/4: 3–5 evaluations to |ΔT| < 0.001 K. Should the
 * secant leave the physical range or stall, the relaxed iteration of wbgt.c
 * takes over, so convergence is never worse than the original's.
 *
 * @param map the energy-balance map, K → K
 * @param startK first estimate, K
 * @returns the root, K, or NaN when neither method converges
 */
export function solveEnergyBalance(map: (tK: number) => number, startK: number): number {
  let x0 = startK;
  let g0 = map(x0) - x0;
  if (!Number.isFinite(g0)) return NaN;
  let x1 = x0 + SECANT_FIRST_STEP * g0;
  for (let iter = 0; iter < SECANT_MAX_ITERATIONS; iter++) {
    if (Math.abs(x1 - x0) < SECANT_CONVERGENCE_K) return x1;
    const g1 = map(x1) - x1;
    const slope = (g1 - g0) / (x1 - x0);
    if (!(slope < 0) || !Number.isFinite(g1)) break;
    const x2 = x1 - g1 / slope;
    if (!(x2 > MIN_TEMPERATURE_K && x2 < MAX_TEMPERATURE_K)) break;
    x0 = x1;
    g0 = g1;
    x1 = x2;
  }
  return relaxedIteration(map, startK);
}

/** First secant step as a fraction of g: a Newton step for g′ ≈ −4, mid-range of the two balances. */
const SECANT_FIRST_STEP = 0.25;
/** K: the secant's last step; the error after it is far smaller (superlinear convergence). */
const SECANT_CONVERGENCE_K = 0.001;
const SECANT_MAX_ITERATIONS = 30;
/** Bounds of a physical globe or wick temperature, K (outside: fall back). */
const MIN_TEMPERATURE_K = 150;
const MAX_TEMPERATURE_K = 450;

/** wbgt.c's relaxed fixed-point iteration (relaxation 0.9/0.1, stop at 0.02 K): the fallback. */
function relaxedIteration(map: (tK: number) => number, startK: number): number {
  let prev = startK;
  for (let iter = 0; iter < C.maxIterations; iter++) {
    const next = map(prev);
    if (Math.abs(next - prev) < C.convergenceK) return next;
    prev = 0.9 * prev + 0.1 * next;
  }
  return NaN;
}

/**
 * Globe temperature, the root of the globe energy balance (Liljegren 2008
 * eq. 5), solved by {@link solveEnergyBalance}:
 *
 * Tg⁴ = ½(εa Ta⁴ + εs Ts⁴) − h/(σ εg)(Tg − Ta)
 *       + S/(2σ εg)(1 − αg)[fdir(1/(2 cos θ) − 1) + 1 + αs],   Ts = Ta
 *
 * with h evaluated at the film temperature (Tg + Ta)/2, as wbgt.c.
 *
 * @returns globe temperature, °C, or NaN if the solution does not converge
 */
export function globeTemperature(env: LiljegrenEnvironment): number {
  const { tK, rh, pressureHpa, speedMs, solarWm2, fdir, cza } = env;
  const g = C.globe;
  const sigma = C.stefanBoltzmann;
  const longwave = 0.5 * (atmosphericEmissivity(tK, rh) * tK ** 4 + C.surface.emissivity * tK ** 4);
  // cza ≤ 0 carries fdir = 0 (see solarParameters), so 1/(2 cza) never matters there.
  const directTerm = fdir > 0 ? fdir * (1 / (2 * cza) - 1) : 0;
  const shortwave = (solarWm2 / (2 * sigma * g.emissivity)) * (1 - g.albedo) * (directTerm + 1 + C.surface.albedo);
  const map = (prev: number): number => {
    const h = hSphere(g.diameterM, 0.5 * (prev + tK), pressureHpa, speedMs);
    return (longwave - (h / (sigma * g.emissivity)) * (prev - tK) + shortwave) ** 0.25;
  };
  return solveEnergyBalance(map, tK) - 273.15;
}

/**
 * Natural (radiation = true) or psychrometric (false) wet-bulb temperature,
 * the root of the wick energy balance (Liljegren 2008 eq. 4), solved by
 * {@link solveEnergyBalance} from the dew point (wbgt.c's first estimate):
 *
 * Tw = Ta − (ΔHvap/ratio)(ew − ea)/(p − ew)(Pr/Sc)^0.56 + F/h
 * F  = σ εw [½(εa Ta⁴ + εs Ts⁴) − Tw⁴]
 *      + (1 − αw) S [(1 − fdir)(1 + D/4L) + fdir(tan θ/π + D/4L) + αs]
 *
 * with the air properties at the film temperature (Tw + Ta)/2, as wbgt.c.
 *
 * @returns wet-bulb temperature, °C, or NaN if the solution does not converge
 */
export function wetBulbTemperature(env: LiljegrenEnvironment, radiation: boolean): number {
  const { tK, rh, pressureHpa, speedMs, solarWm2, fdir, cza } = env;
  const w = C.wick;
  const sigma = C.stefanBoltzmann;
  const sza = Math.acos(Math.max(-1, Math.min(1, cza)));
  const eAir = rh * esatBuck(tK);
  const skyGround = 0.5 * (atmosphericEmissivity(tK, rh) * tK ** 4 + C.surface.emissivity * tK ** 4);
  const dl = (0.25 * w.diameterM) / w.lengthM;
  const beam = fdir > 0 ? fdir * (Math.tan(sza) / Math.PI + dl) : 0;
  const solarTerm = (1 - w.albedo) * solarWm2 * ((1 - fdir) * (1 + dl) + beam + C.surface.albedo);
  const map = (prev: number): number => {
    const tRef = 0.5 * (prev + tK);
    const eWick = esatBuck(prev);
    const density = (pressureHpa * 100) / (R_AIR * tRef);
    const schmidt = viscosityAir(tRef) / (density * diffusivityVapour(tRef, pressureHpa));
    const evaporation =
      (latentHeatEvaporation(tRef) / PSY_RATIO) * ((eWick - eAir) / (pressureHpa - eWick)) * (PRANDTL / schmidt) ** 0.56;
    if (!radiation) return tK - evaporation;
    const fatm = sigma * w.emissivity * (skyGround - prev ** 4) + solarTerm;
    return tK - evaporation + fatm / hCylinder(w.diameterM, tRef, pressureHpa, speedMs);
  };
  return solveEnergyBalance(map, dewPointBuck(eAir)) - 273.15;
}
