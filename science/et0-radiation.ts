/**
 * Extraterrestrial and clear-sky radiation for FAO-56 (Allen et al. 1998,
 * chapter 3) on daily and hourly periods.
 */
import { SOLAR_CONSTANT_FAO56_MJ_PER_M2_MIN } from './constants.js';

/** Inverse relative Earth–Sun distance dr = 1 + 0.033 cos(2πJ/365) (FAO-56 eq. 23). */
export function inverseRelativeDistance(dayOfYear: number): number {
  return 1 + 0.033 * Math.cos((2 * Math.PI * dayOfYear) / 365);
}

/** Solar declination δ = 0.409 sin(2πJ/365 − 1.39), rad (FAO-56 eq. 24). */
export function solarDeclinationFao(dayOfYear: number): number {
  return 0.409 * Math.sin((2 * Math.PI * dayOfYear) / 365 - 1.39);
}

/** Sunset hour angle ωs = acos(−tan φ tan δ), rad (FAO-56 eq. 25). */
export function sunsetHourAngle(latRad: number, declRad: number): number {
  return Math.acos(Math.max(-1, Math.min(1, -Math.tan(latRad) * Math.tan(declRad))));
}

/**
 * Daily extraterrestrial radiation (FAO-56 eq. 21):
 * Ra = (24·60/π) Gsc dr [ωs sin φ sin δ + cos φ cos δ sin ωs]
 *
 * @param lat latitude, degrees north
 * @param dayOfYear 1..366
 * @returns MJ m⁻² day⁻¹
 */
export function extraterrestrialRadiationDaily(lat: number, dayOfYear: number): number {
  const phi = (lat * Math.PI) / 180;
  const d = solarDeclinationFao(dayOfYear);
  const ws = sunsetHourAngle(phi, d);
  const ra =
    ((24 * 60) / Math.PI) *
    SOLAR_CONSTANT_FAO56_MJ_PER_M2_MIN *
    inverseRelativeDistance(dayOfYear) *
    (ws * Math.sin(phi) * Math.sin(d) + Math.cos(phi) * Math.cos(d) * Math.sin(ws));
  return Math.max(0, ra);
}

/** Daylight hours N = 24 ωs / π (FAO-56 eq. 34). */
export function daylightHours(lat: number, dayOfYear: number): number {
  return (24 / Math.PI) * sunsetHourAngle((lat * Math.PI) / 180, solarDeclinationFao(dayOfYear));
}

/** Seasonal correction for solar time Sc, hours (FAO-56 eqs. 32-33). */
export function seasonalCorrectionHours(dayOfYear: number): number {
  const b = (2 * Math.PI * (dayOfYear - 81)) / 364;
  return 0.1645 * Math.sin(2 * b) - 0.1255 * Math.cos(b) - 0.025 * Math.sin(b);
}

/** Extraterrestrial radiation of a period and the Sun's angle at its middle. */
export interface PeriodRadiation {
  /** Ra over the period, MJ m⁻². */
  raMJ: number;
  /** Solar elevation at the period's midpoint, rad (FAO/ASCE β). */
  sunElevationRad: number;
}

/**
 * Extraterrestrial radiation over a period shorter than a day (FAO-56 eq. 28):
 *
 * Ra = (12·60/π) Gsc dr [(ω2 − ω1) sin φ sin δ + cos φ cos δ (sin ω2 − sin ω1)]
 * ω = π/12 [(t + (Lz − Lm)/15 + Sc) − 12],  ω1,2 = ω ∓ π t1/24, clamped to ±ωs
 *
 * With UTC clock time, Lz − Lm (degrees west) is simply the east longitude.
 *
 * @param periodStart start of the period (UTC): a Date, or ms since the epoch (a weather answer's, no Date made)
 * @param periodHours length t1, hours (≤ 24)
 * @param lat latitude, degrees north
 * @param lon longitude, degrees east
 */
export function extraterrestrialRadiationPeriod(
  periodStart: Date | number,
  periodHours: number,
  lat: number,
  lon: number,
): PeriodRadiation {
  return extraterrestrialRadiationPeriodInto({ raMJ: 0, sunElevationRad: 0 }, periodStart, periodHours, lat, lon);
}

/** {@link extraterrestrialRadiationPeriod} written into `out` (a caller's object reused: a weather answer's ET0 allocates none), returned. */
export function extraterrestrialRadiationPeriodInto(
  out: PeriodRadiation,
  periodStart: Date | number,
  periodHours: number,
  lat: number,
  lon: number,
): PeriodRadiation {
  // The midpoint's clock time to the second and its day, as a Date would give them (the ms truncated).
  const mid = Math.trunc((typeof periodStart === 'number' ? periodStart : periodStart.getTime()) + (periodHours * 3_600_000) / 2);
  const msOfDay = ((mid % 86_400_000) + 86_400_000) % 86_400_000;
  const tHours = Math.floor(msOfDay / 3_600_000) + (Math.floor(msOfDay / 60_000) % 60) / 60 + (Math.floor(msOfDay / 1000) % 60) / 3600;
  const day = dayTerms((mid - msOfDay) / 86_400_000);
  const phi = (lat * Math.PI) / 180;
  const ws = Math.acos(Math.max(-1, Math.min(1, -Math.tan(phi) * day.tanDeclination)));
  const omega = (Math.PI / 12) * (tHours + lon / 15 + day.seasonalCorrection - 12);
  const half = (Math.PI * periodHours) / 24;
  const w1 = Math.max(-ws, Math.min(ws, omega - half));
  const w2 = Math.max(-ws, Math.min(ws, omega + half));
  const sinPhi = Math.sin(phi);
  const cosPhi = Math.cos(phi);
  const ra =
    ((12 * 60) / Math.PI) *
    SOLAR_CONSTANT_FAO56_MJ_PER_M2_MIN *
    day.inverseDistance *
    ((w2 - w1) * sinPhi * day.sinDeclination + cosPhi * day.cosDeclination * (Math.sin(w2) - Math.sin(w1)));
  const sinBeta = sinPhi * day.sinDeclination + cosPhi * day.cosDeclination * Math.cos(omega);
  out.raMJ = Math.max(0, ra);
  out.sunElevationRad = Math.asin(Math.max(-1, Math.min(1, sinBeta)));
  return out;
}

/** The terms of a UTC day (days since the epoch) that depend on its day of year alone. */
interface DayTerms {
  declination: number;
  /** sin δ, cos δ, tan δ: the same for every point of the day. */
  sinDeclination: number;
  cosDeclination: number;
  tanDeclination: number;
  seasonalCorrection: number;
  inverseDistance: number;
}

// The last day asked: a weather answer's ET0 asks one, and so do the hours of a day in a row. The Date
// work (year, day of year) and eight of the formula's trigonometric calls are then done once per day.
let lastDay = NaN;
let lastTerms: DayTerms = { declination: NaN, sinDeclination: NaN, cosDeclination: NaN, tanDeclination: NaN, seasonalCorrection: NaN, inverseDistance: NaN };

function dayTerms(day: number): DayTerms {
  if (day !== lastDay) {
    const doy = dayOfYearUtc(new Date(day * 86_400_000));
    const d = solarDeclinationFao(doy);
    lastTerms = {
      declination: d,
      sinDeclination: Math.sin(d),
      cosDeclination: Math.cos(d),
      tanDeclination: Math.tan(d),
      seasonalCorrection: seasonalCorrectionHours(doy),
      inverseDistance: inverseRelativeDistance(doy),
    };
    lastDay = day;
  }
  return lastTerms;
}

/** Clear-sky radiation Rso = (0.75 + 2·10⁻⁵ z) Ra (FAO-56 eq. 37). */
export function clearSkyRadiation(raMJ: number, elevationM: number): number {
  return (0.75 + 2e-5 * elevationM) * raMJ;
}

/** Day of year 1..366 of a UTC instant. */
export function dayOfYearUtc(time: Date): number {
  const start = Date.UTC(time.getUTCFullYear(), 0, 1);
  return Math.floor((time.getTime() - start) / 86_400_000) + 1;
}
