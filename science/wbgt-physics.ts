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
 * of the same equation is found by the secant method, within 0.003 K in 2–4
 * evaluations (see {@link solveEnergyBalance}), with the air properties of the
 * film temperature evaluated through wbgt-air.ts's factorised coefficients.
 * Against the wbgt.c reference cases this moves results by about −0.01 K
 * (the reference file's own note: "fully converged solvers differ by
 * ~0.01-0.015 degC").
 *
 * Temperatures here are in kelvin and pressures in hPa, as in wbgt.c.
 */
import {
  dewPointBuck,
  esatBuck,
  filmConstantsInto,
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
  const air = { tK: 0, pressureHpa: 0, eAir: 0, skyGroundK4: 0, film: { sphereConduction: 0, sphereForced: 0, cylinder: 0 } };
  return liljegrenAirInto(air, tK, rh, pressureHpa, speedMs);
}

/**
 * {@link liljegrenAir} written into `air` (a caller's object reused, its film's too: a weather answer's WBGT
 * allocates none of them), returned.
 */
export function liljegrenAirInto(air: LiljegrenAir, tK: number, rh: number, pressureHpa: number, speedMs: number): LiljegrenAir {
  const t4 = tK * tK * tK * tK;
  const eAir = rh * esatBuck(tK);
  // εa = 0.575 e^0.143 (wbgt-air.ts atmosphericEmissivity, with e computed once).
  const epsAtm = 0.575 * eAir ** 0.143;
  air.tK = tK;
  air.pressureHpa = pressureHpa;
  air.eAir = eAir;
  air.skyGroundK4 = 0.5 * (epsAtm * t4 + C.surface.emissivity * t4);
  filmConstantsInto(air.film, pressureHpa, speedMs);
  return air;
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
 * @param memory optional warm state, see {@link solveEnergyBalance}
 * @returns K, NaN if no solution is found
 */
export function solveGlobe(air: LiljegrenAir, solarTermK4: number, startK: number, memory?: Float64Array, at = 0): number {
  const { tK, film } = air;
  // g′ ≈ −1 − h/(4 σ εg Tg³) (the map is (… − h(Tg − Ta)/(σ εg))^¼), with h and Tg taken at Ta;
  // not needed when the memory holds the slope found last time.
  const slope = memory && memory[at + 1]! < 0 ? DEFAULT_SLOPE : -1 - (hSphereFilm(film, tK) * GLOBE_CONVECTIVE) / (4 * tK * tK * tK);
  return solveBalance(GLOBE, air, air.skyGroundK4 + solarTermK4, null, startK, slope, memory, at);
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
 * @param memory optional warm state, see {@link solveEnergyBalance}
 * @returns K, NaN if no solution is found
 */
export function solveWetBulb(
  air: LiljegrenAir,
  solarTermWm2: number,
  radiation: boolean,
  startK: number,
  memory?: Float64Array,
  at = 0,
): number {
  return solveBalance(radiation ? WICK_NATURAL : WICK_PSYCHROMETRIC, air, solarTermWm2, null, startK, DEFAULT_SLOPE, memory, at);
}

/** Which map {@link solveBalance} finds the root of: the globe's, the wick's with or without radiation, or a caller's. */
const GLOBE = 0;
const WICK_NATURAL = 1;
const WICK_PSYCHROMETRIC = 2;
const CALLER = 3;
type Balance = typeof GLOBE | typeof WICK_NATURAL | typeof WICK_PSYCHROMETRIC | typeof CALLER;

/** 1/(σ εg): the globe's convective term in K⁴ per W m⁻². */
const GLOBE_CONVECTIVE = 1 / (C.stefanBoltzmann * C.globe.emissivity);
/** σ εw: the wick's longwave exchange, W m⁻² K⁻⁴. */
const WICK_SIGMA_EPS = C.stefanBoltzmann * C.wick.emissivity;

/**
 * One evaluation of a balance's map at T (K), the equations of {@link solveGlobe}
 * and {@link solveWetBulb}: a switch rather than a closure per solve, so that
 * the solver's calls are monomorphic and inlined and nothing is allocated
 * (the four closures of an answer's WBGT and their polymorphic calls were a
 * fifth of its cost). `term` is the globe's radiative sum ½(εa Ta⁴ + εs Ts⁴) +
 * solar term (K⁴) or the wick's solar term (W m⁻²).
 */
function evaluate(kind: Balance, air: LiljegrenAir, term: number, map: ((tK: number) => number) | null, t: number): number {
  if (kind === CALLER) return map!(t);
  const tK = air.tK;
  if (kind === GLOBE) {
    const q = term - hSphereFilm(air.film, 0.5 * (t + tK)) * GLOBE_CONVECTIVE * (t - tK);
    return Math.sqrt(Math.sqrt(q));
  }
  const tRef = 0.5 * (t + tK);
  const eWick = esatBuck(t);
  const evaporation = (latentHeatEvaporation(tRef) / PSY_RATIO) * ((eWick - air.eAir) / (air.pressureHpa - eWick)) * schmidtFactor(tRef);
  if (kind === WICK_PSYCHROMETRIC) return tK - evaporation;
  const t2 = t * t;
  const fatm = WICK_SIGMA_EPS * (air.skyGroundK4 - t2 * t2) + term;
  return tK - evaporation + fatm / hCylinderFilm(air.film, tRef);
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
 * @param startK first estimate, K (default the dew point, as wbgt.c; the air temperature when the air is bone dry)
 * @returns °C, or NaN if no solution is found
 */
export function wetBulbTemperature(env: LiljegrenEnvironment, radiation: boolean, startK?: number): number {
  const air = liljegrenAir(env.tK, env.rh, env.pressureHpa, env.speedMs);
  const start = startK !== undefined && startK > 0 ? startK : wickStartK(air);
  return solveWetBulb(air, wickSolarTerm(env.solarWm2, env.fdir, env.cza), radiation, start) - 273.15;
}

/** The wick's first estimate, K: the dew point, as wbgt.c; bone-dry air has none (log 0), then the air temperature. */
export function wickStartK(air: LiljegrenAir): number {
  const dew = dewPointBuck(air.eAir);
  return Number.isFinite(dew) ? dew : air.tK;
}

/** Slope of g assumed for the first step when nothing better is known: mid-range of the two balances. */
const DEFAULT_SLOPE = -4;
/**
 * K: stop when a secant step is below this. Convergence is superlinear
 * (e_{n+1} ≈ |g″/2g′| e_n e_{n−1}), so the estimate after such a step is
 * far closer to the root: measured maximum 0.003 K over 20 000 random cases
 * from −30 to 45 °C (test/science/wbgt-solver.test.ts), typically 1e-5 K.
 */
const SECANT_CONVERGENCE_K = 0.002;
const SECANT_MAX_ITERATIONS = 30;
/** Bounds of a physical globe or wick temperature, K (outside: fall back). */
const MIN_TEMPERATURE_K = 150;
const MAX_TEMPERATURE_K = 450;

/**
 * Root of T = map(T), temperatures in K: both balances are written so.
 * `slopeEstimate` is g′ expected near the root, for the first step.
 *
 * map′ is about −1 to −6, so the plain iteration diverges and wbgt.c relaxes
 * it (T ← 0.9 T + 0.1 map(T)). g(T) = map(T) − T is smooth and monotone
 * (g′ ≈ −2…−7 for the wick, down to −30 for the globe in strong wind), so
 * the secant method converges superlinearly: a first Newton-like step with
 * the estimated slope, then secants until a step is below 0.01 K. A step
 * into an impossible state (non-finite map) is halved; should a step leave
 * 150–450 K or the slope not be negative, wbgt.c's relaxed iteration takes
 * over: never worse than the original.
 *
 * `memory` (optional) carries a warm state between calls on similar cases, a
 * grid cell's successive time steps: memory[at] = previous root (K, used as
 * the start when finite) and memory[at + 1] = the slope of g found there
 * (used for the first step); both are updated. Each root is the same to the
 * tolerance whatever the start.
 *
 * @returns the root, K, or NaN when neither method converges
 */
export function solveEnergyBalance(
  map: (tK: number) => number,
  startK: number,
  slopeEstimate: number,
  memory?: Float64Array,
  at = 0,
): number {
  return solveBalance(CALLER, NO_AIR, 0, map, startK, slopeEstimate, memory, at);
}

/** The air of a caller's map: never read. */
const NO_AIR: LiljegrenAir = { tK: NaN, pressureHpa: NaN, eAir: NaN, skyGroundK4: NaN, film: { sphereConduction: NaN, sphereForced: NaN, cylinder: NaN } };

/** {@link solveEnergyBalance} of the map {@link evaluate} names (see there). */
function solveBalance(
  kind: Balance,
  air: LiljegrenAir,
  term: number,
  map: ((tK: number) => number) | null,
  startK: number,
  slopeEstimate: number,
  memory: Float64Array | undefined,
  at: number,
): number {
  let x0 = startK;
  let slope = slopeEstimate < 0 ? slopeEstimate : DEFAULT_SLOPE;
  if (memory && memory[at]! > 0) {
    x0 = memory[at]!;
    if (memory[at + 1]! < 0) slope = memory[at + 1]!;
  }
  let g0 = evaluate(kind, air, term, map, x0) - x0;
  let root = NaN;
  if (Number.isFinite(g0)) {
    let x1 = x0 - g0 / slope;
    if (Math.abs(x1 - x0) < SECANT_CONVERGENCE_K) root = x1;
    else {
      for (let iter = 0; iter < SECANT_MAX_ITERATIONS; iter++) {
        const g1 = evaluate(kind, air, term, map, x1) - x1;
        if (!Number.isFinite(g1)) {
          // Overshot into an impossible state (negative radiant balance): step back halfway.
          x1 = 0.5 * (x0 + x1);
          continue;
        }
        slope = (g1 - g0) / (x1 - x0);
        if (!(slope < 0)) break;
        const x2 = x1 - g1 / slope;
        if (!(x2 > MIN_TEMPERATURE_K && x2 < MAX_TEMPERATURE_K)) break;
        if (Math.abs(x2 - x1) < SECANT_CONVERGENCE_K) {
          root = x2;
          break;
        }
        x0 = x1;
        g0 = g1;
        x1 = x2;
      }
    }
  }
  if (Number.isNaN(root)) {
    root = relaxedIteration(kind, air, term, map, startK);
    slope = DEFAULT_SLOPE;
  }
  if (memory) {
    memory[at] = root;
    memory[at + 1] = slope < 0 ? slope : DEFAULT_SLOPE;
  }
  return root;
}

/** wbgt.c's relaxed fixed-point iteration (0.9/0.1, stop at 0.02 K, at most LILJEGREN.maxIterations). */
function relaxedIteration(kind: Balance, air: LiljegrenAir, term: number, map: ((tK: number) => number) | null, startK: number): number {
  let prev = startK;
  for (let iter = 0; iter < C.maxIterations; iter++) {
    const next = evaluate(kind, air, term, map, prev);
    if (!Number.isFinite(next)) return NaN;
    if (Math.abs(next - prev) < C.convergenceK) return next;
    prev = 0.9 * prev + 0.1 * next;
  }
  return NaN;
}
