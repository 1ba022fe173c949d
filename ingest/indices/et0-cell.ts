/**
 * FAO-56 hourly reference evapotranspiration (Allen et al. 1998, eq. 53) for
 * grid cells: science/ `et0Hourly` with its per-period part taken out of
 * the cell loop. et0Hourly builds a Date, the day of year, the declination,
 * the seasonal correction and the Earth–Sun distance for every call; those
 * depend on the period only, so they are computed once per time step
 * ({@link et0Period}) and the cell part ({@link et0Cell}) keeps the
 * latitude- and weather-dependent terms. Same equations, same library
 * building blocks, FAO-56 standard (Cn 37, Cd 0.34), night Rs/Rso 0.7:
 * test/ingest/indices checks equality with et0Hourly cell by cell.
 */
import {
  clearSkyRadiation,
  dayOfYearUtc,
  inverseRelativeDistance,
  pressureFromElevationKpa,
  psychrometricConstant,
  saturationVapourPressureFao56,
  seasonalCorrectionHours,
  solarDeclinationFao,
  sunsetHourAngle,
  SOLAR_CONSTANT_FAO56_MJ_PER_M2_MIN,
  windSpeed2mFao,
} from '../../science/index.js';

/** Stefan–Boltzmann constant per hour, MJ K⁻⁴ m⁻² h⁻¹ (ASCE-EWRI 2005; as et0.ts). */
const SIGMA_HOUR = 2.042e-10;
/** Rs/Rso when the Sun is below 0.3 rad (et0Hourly's default lowSunRsRsoRatio). */
const LOW_SUN_RATIO = 0.7;
/** sin of the solar elevation below which Rs/Rso is not used, 0.3 rad (FAO-56 p. 75; et0.ts). */
const SIN_LOW_SUN = Math.sin(0.3);
/** 10 m → 2 m wind factor of the FAO-56 log profile (eq. 47), science/ windSpeed2mFao. */
const U2_FACTOR = windSpeed2mFao(1, 10);

/** The period-only part of FAO-56 eq. 28 (extraterrestrial radiation over the period). */
export interface Et0Period {
  hours: number;
  declRad: number;
  sinDecl: number;
  cosDecl: number;
  /** (12·60/π) Gsc dr, MJ m⁻² per radian of hour angle. */
  raFactor: number;
  /** π/12 (t + Sc − 12) at the period's middle, rad: the hour angle at longitude 0. */
  omega0: number;
  /** π t1 / 24, rad: half the period in hour angle. */
  half: number;
}

/** @param validMs end of the period, ms  @param periodHours its length t1, hours */
export function et0Period(validMs: number, periodHours: number): Et0Period {
  const mid = new Date(validMs - (periodHours * 3_600_000) / 2);
  const doy = dayOfYearUtc(mid);
  const tHours = mid.getUTCHours() + mid.getUTCMinutes() / 60 + mid.getUTCSeconds() / 3600;
  const declRad = solarDeclinationFao(doy);
  return {
    hours: periodHours,
    declRad,
    sinDecl: Math.sin(declRad),
    cosDecl: Math.cos(declRad),
    raFactor: ((12 * 60) / Math.PI) * SOLAR_CONSTANT_FAO56_MJ_PER_M2_MIN * inverseRelativeDistance(doy),
    omega0: (Math.PI / 12) * (tHours + seasonalCorrectionHours(doy) - 12),
    half: (Math.PI * periodHours) / 24,
  };
}

/** One cell's inputs (NaN where absent). */
export interface Et0CellInput {
  latDeg: number;
  /** sin and cos of the latitude (./sun.ts cellCoords). */
  sinLat: number;
  cosLat: number;
  lonDeg: number;
  elevationM: number;
  temperatureC: number;
  /** °C; NaN → relativeHumidityPct is used. */
  dewPointC: number;
  relativeHumidityPct: number;
  /** Mean global irradiance over the period, W/m². */
  shortwaveWm2: number;
  /** 10 m wind speed, m/s. */
  windSpeedMs: number;
  /** kPa; NaN → from the elevation (FAO-56 eq. 7). */
  pressureKpa: number;
}

/**
 * ET0 over the period, mm (not below 0), as et0Hourly({ periodStart:
 * validMs − t1, periodHours: t1, windHeightM: 10, ... }).
 */
export function et0Cell(p: Et0Period, c: Et0CellInput): number {
  const t = c.temperatureC;
  const hours = p.hours;
  const e0 = saturationVapourPressureFao56(t);
  const ea = Number.isNaN(c.dewPointC)
    ? (e0 * Math.min(100, Math.max(0, c.relativeHumidityPct))) / 100
    : saturationVapourPressureFao56(c.dewPointC);

  // FAO-56 eq. 28 with ω at longitude λ: ω0 + π/12 · λ/15.
  const sinPhi = c.sinLat;
  const cosPhi = c.cosLat;
  const ws = sunsetHourAngle((c.latDeg * Math.PI) / 180, p.declRad);
  const omega = p.omega0 + (Math.PI / 12) * (c.lonDeg / 15);
  const w1 = Math.max(-ws, Math.min(ws, omega - p.half));
  const w2 = Math.max(-ws, Math.min(ws, omega + p.half));
  const ra = Math.max(0, p.raFactor * ((w2 - w1) * sinPhi * p.sinDecl + cosPhi * p.cosDecl * (Math.sin(w2) - Math.sin(w1))));
  // β ≥ 0.3 rad ⇔ sin β ≥ sin 0.3 (no asin per cell).
  const sinBeta = sinPhi * p.sinDecl + cosPhi * p.cosDecl * Math.cos(omega);

  const rs = Math.max(0, c.shortwaveWm2) * 0.0036 * hours;
  const rso = clearSkyRadiation(ra, c.elevationM);
  const ratio = sinBeta >= SIN_LOW_SUN && rso > 0 ? rs / rso : LOW_SUN_RATIO;
  // Cloudiness factor 1.35 Rs/Rso − 0.35, Rs/Rso limited to 0.3..1 (ASCE-EWRI 2005 eq. 18).
  const fcd = 1.35 * Math.min(1, Math.max(0.3, ratio)) - 0.35;
  const tk2 = (t + 273.16) * (t + 273.16);
  const rnl = SIGMA_HOUR * hours * tk2 * tk2 * (0.34 - 0.14 * Math.sqrt(ea)) * fcd;
  const rn = 0.77 * rs - rnl;
  const g = rn > 0 ? 0.1 * rn : 0.5 * rn;
  const u2 = c.windSpeedMs * U2_FACTOR;
  // Δ = 4098 e°(T)/(T + 237.3)² (FAO-56 eq. 13, science/ saturationSlope) with e°(T) computed once.
  const delta = (4098 * e0) / (t + 237.3) ** 2;
  const gamma = psychrometricConstant(Number.isNaN(c.pressureKpa) ? pressureFromElevationKpa(c.elevationM) : c.pressureKpa);
  const et0 = (0.408 * delta * (rn - g) + gamma * ((37 * hours) / (t + 273)) * u2 * (e0 - ea)) / (delta + gamma * (1 + 0.34 * u2));
  return Math.max(0, et0);
}
