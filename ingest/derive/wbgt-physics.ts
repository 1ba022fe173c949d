/**
 * The two energy balances of the Liljegren et al. (2008) WBGT model — the
 * black globe and the natural wet-bulb wick — and their solution. Air
 * properties and heat-transfer coefficients are in ./wbgt-air.ts (re-exported
 * here, the module's historical home).
 *
 * Liljegren J.C., Carhart R.A., Lawday P., Tschopp S., Sharp R. (2008)
 * Modeling the wet bulb globe temperature using standard meteorological
 * measurements. J. Occup. Environ. Hyg. 5(10):645-655,
 * doi:10.1080/15459620802310770; Argonne wbgt.c v1.1, whose constants and
 * equations are kept. The solution differs in method only: wbgt.c relaxes a
 * fixed-point iteration until two estimates differ by 0.02 K, which takes
 * 20–60 evaluations and stops up to ~0.015 K short of the root; here the root
 * of the same equation is found by the secant method to 0.001 K in 3–5
 * evaluations (see {@link solveEnergyBalance}), with the air properties of the
 * film temperature evaluated through wbgt-air.ts's factorised coefficients.
 * Against the wbgt.c reference cases this moves results by about −0.01 K
 * (the reference file's own note: "fully converged solvers differ by
 * ~0.01-0.015 degC").
 *
 * Temperatures here are in kelvin and pressures in hPa, as in wbgt.c.
 */
import {
  atmosphericEmissivity,
  dewPointBuck,
  esatBuck,
  filmConstants,
  hCylinderFilm,
  hSphereFilm,
  latentHeatEvaporation,
  LILJEGREN as C,
  PSY_RATIO,
  schmidtFactor,
  type FilmConstants,
} from './wbgt-air.js';

export * from './wbgt-air.js';

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

/** What globe and wick share for one air state (sun and shade alike). */
export interface LiljegrenAir {
  tK: number;
  pressureHpa: number;
  /** Vapour pressure of the air, hPa. */
  eAir: number;
  /** ½(εa Ta⁴ + εs Ts⁴), Ts = Ta: longwave from sky and ground, K⁴ (÷σ). */
  skyGroundK4: number;
  film: FilmConstants;
}

/** Prepare the shared part of the two balances. */
export function liljegrenAir(tK: number, rh: number, pressureHpa: number, speedMs: number): LiljegrenAir {
  const t4 = tK * tK * tK * tK;
  return {
    tK,
    pressureHpa,
    eAir: rh * esatBuck(tK),
    skyGroundK4: 0.5 * (atmosphericEmissivity(tK, rh) * t4 + C.surface.emissivity * t4),
    film: filmConstants(pressureHpa, speedMs),
  };
}

/** Globe shortwave gain S/(2σ εg)(1 − αg)[fdir(1/(2 cos θ) − 1) + 1 + αs], K⁴. */
export function globeSolarTerm(solarWm2: number, fdir: number, cza: number): number {
  const g = C.globe;
  // cza ≤ 0 carries fdir = 0 (see solarParameters), so 1/(2 cza) never matters there.
  const directTerm = fdir > 0 ? fdir * (1 / (2 * cza) - 1) : 0;
  return (solarWm2 / (2 * C.stefanBoltzmann * g.emissivity)) * (1 - g.albedo) * (directTerm + 1 + C.surface.albedo);
}

/** Wick shortwave gain (1 − αw) S [(1 − fdir)(1 + D/4L) + fdir(tan θ/π + D/4L) + αs], W m⁻². */
export function wickSolarTerm(solarWm2: number, fdir: number, cza: number): number {
  const w = C.wick;
  const dl = (0.25 * w.diameterM) / w.lengthM;
  const beam = fdir > 0 ? fdir * (Math.tan(Math.acos(Math.max(-1, Math.min(1, cza)))) / Math.PI + dl) : 0;
  return (1 - w.albedo) * solarWm2 * ((1 - fdir) * (1 + dl) + beam + C.surface.albedo);
}

/**
 * Globe temperature, the root of the globe energy balance (Liljegren 2008
 * eq. 5), h at the film temperature (Tg + Ta)/2 as wbgt.c:
 *
 * Tg⁴ = ½(εa Ta⁴ + εs Ts⁴) − h/(σ εg)(Tg − Ta) + solar term
 *
 * @param solarTermK4 {@link globeSolarTerm} (0 in the shade)
 * @param startK first estimate, K (wbgt.c: the air temperature)
 * @returns K, NaN if no solution is found
 */
export function solveGlobe(air: LiljegrenAir, solarTermK4: number, startK: number): number {
  const { tK, film, skyGroundK4 } = air;
  const radiative = skyGroundK4 + solarTermK4;
  const convective = 1 / (C.stefanBoltzmann * C.globe.emissivity);
  return solveEnergyBalance((tg) => {
    const q = radiative - hSphereFilm(film, 0.5 * (tg + tK)) * convective * (tg - tK);
    return Math.sqrt(Math.sqrt(q));
  }, startK);
}

/**
 * Natural (radiation = true) or psychrometric (false) wet-bulb temperature,
 * the root of the wick energy balance (Liljegren 2008 eq. 4), air properties
 * at the film temperature (Tw + Ta)/2 as wbgt.c:
 *
 * Tw = Ta − (ΔHvap/ratio)(ew − ea)/(p − ew)(Pr/Sc)^0.56 + F/h
 * F  = σ εw [½(εa Ta⁴ + εs Ts⁴) − Tw⁴] + solar term
 *
 * @param solarTermWm2 {@link wickSolarTerm} (0 in the shade)
 * @param startK first estimate, K (wbgt.c: the dew point)
 * @returns K, NaN if no solution is found
 */
export function solveWetBulb(air: LiljegrenAir, solarTermWm2: number, radiation: boolean, startK: number): number {
  const { tK, pressureHpa, eAir, film, skyGroundK4 } = air;
  const sigmaEps = C.stefanBoltzmann * C.wick.emissivity;
  return solveEnergyBalance((tw) => {
    const tRef = 0.5 * (tw + tK);
    const eWick = esatBuck(tw);
    const evaporation = (latentHeatEvaporation(tRef) / PSY_RATIO) * ((eWick - eAir) / (pressureHpa - eWick)) * schmidtFactor(tRef);
    if (!radiation) return tK - evaporation;
    const tw2 = tw * tw;
    const fatm = sigmaEps * (skyGroundK4 - tw2 * tw2) + solarTermWm2;
    return tK - evaporation + fatm / hCylinderFilm(film, tRef);
  }, startK);
}

/**
 * Globe temperature for one environment.
 *
 * @param startK first estimate, K (default the air temperature, as wbgt.c; a grid passes the previous step's solution)
 * @returns °C, or NaN if no solution is found
 */
export function globeTemperature(env: LiljegrenEnvironment, startK?: number): number {
  const air = liljegrenAir(env.tK, env.rh, env.pressureHpa, env.speedMs);
  const start = startK !== undefined && startK > 0 ? startK : env.tK;
  return solveGlobe(air, globeSolarTerm(env.solarWm2, env.fdir, env.cza), start) - 273.15;
}

/**
 * Natural or psychrometric wet-bulb temperature for one environment.
 *
 * @param startK first estimate, K (default the dew point, as wbgt.c)
 * @returns °C, or NaN if no solution is found
 */
export function wetBulbTemperature(env: LiljegrenEnvironment, radiation: boolean, startK?: number): number {
  const air = liljegrenAir(env.tK, env.rh, env.pressureHpa, env.speedMs);
  const start = startK !== undefined && startK > 0 ? startK : dewPointBuck(air.eAir);
  return solveWetBulb(air, wickSolarTerm(env.solarWm2, env.fdir, env.cza), radiation, start) - 273.15;
}

/** First secant step as a fraction of g: a Newton step for g′ ≈ −4, mid-range of the two balances. */
const SECANT_FIRST_STEP = 0.25;
/** K: the secant's last step; the error after it is far smaller (superlinear convergence). */
const SECANT_CONVERGENCE_K = 0.001;
const SECANT_MAX_ITERATIONS = 30;
/** Bounds of a physical globe or wick temperature, K (outside: fall back). */
const MIN_TEMPERATURE_K = 150;
const MAX_TEMPERATURE_K = 450;

/**
 * Root of T = map(T), temperatures in K: both balances are written so.
 *
 * map′ is about −1 to −6, so the plain iteration diverges and wbgt.c relaxes
 * it (T ← 0.9 T + 0.1 map(T)). g(T) = map(T) − T is smooth and monotone
 * (g′ ≈ −2…−7), so the secant method converges superlinearly: first step
 * g/4 (a Newton step for a typical slope), then secants until a step is below
 * 0.001 K. Should a step leave 150–450 K or the slope not be negative, wbgt.c's
 * relaxed iteration takes over: never worse than the original.
 *
 * @returns the root, K, or NaN when neither method converges
 */
export function solveEnergyBalance(map: (tK: number) => number, startK: number): number {
  let x0 = startK;
  let g0 = map(x0) - x0;
  if (!Number.isFinite(g0)) return relaxedIteration(map, startK);
  let x1 = x0 + SECANT_FIRST_STEP * g0;
  for (let iter = 0; iter < SECANT_MAX_ITERATIONS; iter++) {
    if (Math.abs(x1 - x0) < SECANT_CONVERGENCE_K) return x1;
    const g1 = map(x1) - x1;
    const slope = (g1 - g0) / (x1 - x0);
    if (!(slope < 0)) break;
    const x2 = x1 - g1 / slope;
    if (!(x2 > MIN_TEMPERATURE_K && x2 < MAX_TEMPERATURE_K)) break;
    x0 = x1;
    g0 = g1;
    x1 = x2;
  }
  return relaxedIteration(map, startK);
}

/** wbgt.c's relaxed fixed-point iteration (0.9/0.1, stop at 0.02 K, at most LILJEGREN.maxIterations). */
function relaxedIteration(map: (tK: number) => number, startK: number): number {
  let prev = startK;
  for (let iter = 0; iter < C.maxIterations; iter++) {
    const next = map(prev);
    if (!Number.isFinite(next)) return NaN;
    if (Math.abs(next - prev) < C.convergenceK) return next;
    prev = 0.9 * prev + 0.1 * next;
  }
  return NaN;
}
