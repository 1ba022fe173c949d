/**
 * Reference evapotranspiration ET0 of a hypothetical grass surface, FAO-56
 * Penman–Monteith (Allen R.G., Pereira L.S., Raes D., Smith M. (1998) Crop
 * evapotranspiration, FAO Irrigation and Drainage Paper 56), daily (eq. 6)
 * and hourly (eq. 53); the ASCE-EWRI (2005) standardized hourly form is an
 * option.
 */
import { saturationVapourPressureFao56 } from './humidity.js';
import {
  clearSkyRadiation,
  daylightHours,
  extraterrestrialRadiationDaily,
  extraterrestrialRadiationPeriodInto,
  type PeriodRadiation,
} from './et0-radiation.js';

/** Slope of the saturation curve Δ = 4098 e°(T)/(T + 237.3)², kPa/°C (FAO-56 eq. 13). */
export function saturationSlope(temperatureC: number): number {
  return slopeFromSaturation(temperatureC, saturationVapourPressureFao56(temperatureC));
}

/** {@link saturationSlope} from e°(T) already computed (the hourly ET0 has it: one exponential less). */
function slopeFromSaturation(temperatureC: number, e0Kpa: number): number {
  return (4098 * e0Kpa) / (temperatureC + 237.3) ** 2;
}

/** Atmospheric pressure from elevation P = 101.3 ((293 − 0.0065 z)/293)^5.26, kPa (FAO-56 eq. 7). */
export function pressureFromElevationKpa(elevationM: number): number {
  return 101.3 * ((293 - 0.0065 * elevationM) / 293) ** 5.26;
}

/** Psychrometric constant γ = 0.665·10⁻³ P, kPa/°C (FAO-56 eq. 8). */
export function psychrometricConstant(pressureKpa: number): number {
  return 0.000665 * pressureKpa;
}

/** ln(67.8 z − 5.42) of the NWP's 10 m wind, the height every weather answer gives. */
const LOG_PROFILE_10M = Math.log(67.8 * 10 - 5.42);

/** Wind at 2 m from height z by the log profile u2 = uz · 4.87 / ln(67.8 z − 5.42) (FAO-56 eq. 47). */
export function windSpeed2mFao(speedMs: number, heightM: number): number {
  return (speedMs * 4.87) / (heightM === 10 ? LOG_PROFILE_10M : Math.log(67.8 * heightM - 5.42));
}


/** Cloudiness factor 1.35 Rs/Rso − 0.35 with Rs/Rso limited to 0.3..1 (ASCE-EWRI 2005 eq. 18). */
function cloudinessFactor(ratio: number): number {
  return 1.35 * Math.min(1, Math.max(0.3, ratio)) - 0.35;
}

/** Stefan–Boltzmann constant per day, MJ K⁻⁴ m⁻² day⁻¹ (FAO-56). */
const SIGMA_DAY = 4.903e-9;
/** Per hour, MJ K⁻⁴ m⁻² h⁻¹ (ASCE-EWRI 2005). */
const SIGMA_HOUR = 2.042e-10;

/** Inputs of {@link et0Daily}. Give dewPointC or the RH pair; Rs or sunshine hours. */
export interface Et0DailyInput {
  /** Latitude, degrees north. */
  lat: number;
  /** Elevation, m. */
  elevationM: number;
  /** Day of year, 1..366. */
  dayOfYear: number;
  /** Daily minimum and maximum air temperature, °C. */
  tMinC: number;
  tMaxC: number;
  /** Mean daily dew point, °C (ea = e°(Td), FAO-56 eq. 14). */
  dewPointC?: number;
  /** Daily max and min relative humidity, % (ea by FAO-56 eq. 17), used when dewPointC is absent. */
  relativeHumidityMaxPct?: number;
  relativeHumidityMinPct?: number;
  /** Incoming shortwave radiation, MJ m⁻² day⁻¹ (W/m² daily mean × 0.0864). */
  shortwaveRadiationMJ?: number;
  /** Bright sunshine hours (Rs by Ångström, as 0.25, bs 0.50; FAO-56 eq. 35), used when Rs is absent. */
  sunshineHours?: number;
  /** Mean wind speed, m/s, at windHeightM (default 2 m). */
  windSpeed: number;
  windHeightM?: number;
  /** Mean pressure, kPa (default from elevation, FAO-56 eq. 7). */
  pressureKpa?: number;
}

/** Intermediate quantities of the daily computation (FAO-56 symbols). */
export interface Et0DailyDetail {
  et0: number;
  es: number;
  ea: number;
  delta: number;
  gamma: number;
  u2: number;
  ra: number;
  rs: number;
  rso: number;
  rn: number;
}

/**
 * Daily reference evapotranspiration, FAO-56 eq. 6 (G = 0):
 *
 * ET0 = [0.408 Δ Rn + γ (900/(T + 273)) u2 (es − ea)] / [Δ + γ (1 + 0.34 u2)]
 *
 * T = (Tmax + Tmin)/2; es = (e°(Tmax) + e°(Tmin))/2; Rn = 0.77 Rs − Rnl;
 * Rnl = σ (Tmax,K⁴ + Tmin,K⁴)/2 (0.34 − 0.14 √ea)(1.35 Rs/Rso − 0.35).
 *
 * @returns mm/day (not below 0)
 */
export function et0Daily(input: Et0DailyInput): number {
  return et0DailyDetail(input).et0;
}

/** {@link et0Daily} with its intermediates. */
export function et0DailyDetail(input: Et0DailyInput): Et0DailyDetail {
  const { lat, elevationM, dayOfYear, tMinC, tMaxC } = input;
  const tMean = (tMaxC + tMinC) / 2;
  const eMax = saturationVapourPressureFao56(tMaxC);
  const eMin = saturationVapourPressureFao56(tMinC);
  const es = (eMax + eMin) / 2;
  let ea: number;
  if (input.dewPointC !== undefined) ea = saturationVapourPressureFao56(input.dewPointC);
  else if (input.relativeHumidityMaxPct !== undefined && input.relativeHumidityMinPct !== undefined)
    ea = (eMin * input.relativeHumidityMaxPct + eMax * input.relativeHumidityMinPct) / 200;
  else ea = NaN;
  const ra = extraterrestrialRadiationDaily(lat, dayOfYear);
  let rs = input.shortwaveRadiationMJ ?? NaN;
  if (input.shortwaveRadiationMJ === undefined && input.sunshineHours !== undefined) {
    rs = (0.25 + (0.5 * input.sunshineHours) / daylightHours(lat, dayOfYear)) * ra;
  }
  const rso = clearSkyRadiation(ra, elevationM);
  const rnl =
    ((SIGMA_DAY * ((tMaxC + 273.16) ** 4 + (tMinC + 273.16) ** 4)) / 2) *
    (0.34 - 0.14 * Math.sqrt(ea)) *
    cloudinessFactor(rso > 0 ? rs / rso : 0.5);
  const rn = 0.77 * rs - rnl;
  const u2 = windSpeed2mFao(input.windSpeed, input.windHeightM ?? 2);
  const delta = saturationSlope(tMean);
  const gamma = psychrometricConstant(input.pressureKpa ?? pressureFromElevationKpa(elevationM));
  const et0 =
    (0.408 * delta * rn + gamma * (900 / (tMean + 273)) * u2 * (es - ea)) / (delta + gamma * (1 + 0.34 * u2));
  return { et0: Math.max(0, et0), es, ea, delta, gamma, u2, ra, rs, rso, rn };
}

/** Inputs of {@link et0Hourly}. */
export interface Et0HourlyInput {
  /** Start of the period (UTC), a Date or ms since the epoch; radiation and the other values are its means. */
  periodStart: Date | number;
  /** Length of the period, hours (default 1). */
  periodHours?: number;
  lat: number;
  lon: number;
  elevationM: number;
  /** Mean air temperature, °C. */
  temperatureC: number;
  /** Dew point, °C; or relativeHumidityPct. */
  dewPointC?: number;
  relativeHumidityPct?: number;
  /** Mean global shortwave irradiance over the period, W/m². */
  shortwaveRadiation: number;
  /** Wind speed, m/s, at windHeightM (default 10 m, the NWP height). */
  windSpeed: number;
  windHeightM?: number;
  /** Pressure, kPa (default from elevation). */
  pressureKpa?: number;
  /** Rs/Rso to use when the Sun is below 0.3 rad (ASCE: carry the last daytime value; default 0.7). */
  lowSunRsRsoRatio?: number;
  /** 'fao56' (default: Cn 37, Cd 0.34) or 'asce' standardized (Cd 0.24 day / 0.96 night). */
  standard?: 'fao56' | 'asce';
}

/** Intermediates of the hourly computation (FAO-56 symbols, MJ m⁻² per period). */
export interface Et0HourlyDetail {
  et0: number;
  ea: number;
  u2: number;
  ra: number;
  rso: number;
  fcd: number;
  rn: number;
  g: number;
}

/**
 * Hourly (sub-daily) reference evapotranspiration, FAO-56 eq. 53:
 *
 * ET0 = [0.408 Δ (Rn − G) + γ (37/(T + 273)) u2 (e°(T) − ea)] / [Δ + γ (1 + Cd u2)]
 *
 * Rn = 0.77 Rs − σh T_K⁴ (0.34 − 0.14 √ea) fcd; G = 0.1 Rn when Rn > 0, else
 * 0.5 Rn; Cd = 0.34 (FAO-56) or 0.24/0.96 (ASCE). When the Sun is below
 * 0.3 rad, Rs/Rso is unreliable and lowSunRsRsoRatio is used (FAO-56 p. 75
 * suggests 0.4–0.8 at night; default 0.7).
 *
 * @returns mm over the period (not below 0)
 */
export function et0Hourly(input: Et0HourlyInput): number {
  return hourlyInto(HOURLY, input).et0;
}

/** {@link et0Hourly} with its intermediates. */
export function et0HourlyDetail(input: Et0HourlyInput): Et0HourlyDetail {
  return { ...hourlyInto(HOURLY, input) };
}

/** The one detail {@link et0Hourly} fills (synchronous, read at once): its numbers are updated in place, none allocated per call. */
const HOURLY: Et0HourlyDetail = { et0: NaN, ea: NaN, u2: NaN, ra: NaN, rso: NaN, fcd: NaN, rn: NaN, g: NaN };

/** The hourly computation into `d`, returned (see {@link et0Hourly}). */
function hourlyInto(d: Et0HourlyDetail, input: Et0HourlyInput): Et0HourlyDetail {
  const hours = input.periodHours ?? 1;
  const t = input.temperatureC;
  const e0 = saturationVapourPressureFao56(t);
  let ea = NaN;
  if (input.dewPointC !== undefined) ea = saturationVapourPressureFao56(input.dewPointC);
  else if (input.relativeHumidityPct !== undefined) ea = (e0 * Math.min(100, Math.max(0, input.relativeHumidityPct))) / 100;
  const period = extraterrestrialRadiationPeriodInto(PERIOD, input.periodStart, hours, input.lat, input.lon);
  const ra = period.raMJ;
  const sunElevationRad = period.sunElevationRad;
  const rs = Math.max(0, input.shortwaveRadiation) * 0.0036 * hours;
  const rso = clearSkyRadiation(ra, input.elevationM);
  const ratio = sunElevationRad >= 0.3 && rso > 0 ? rs / rso : (input.lowSunRsRsoRatio ?? 0.7);
  const fcd = cloudinessFactor(ratio);
  const rnl = SIGMA_HOUR * hours * (t + 273.16) ** 4 * (0.34 - 0.14 * Math.sqrt(ea)) * fcd;
  const rn = 0.77 * rs - rnl;
  const daytime = rn > 0;
  const g = daytime ? 0.1 * rn : 0.5 * rn;
  const cd = input.standard === 'asce' ? (daytime ? 0.24 : 0.96) : 0.34;
  const u2 = windSpeed2mFao(input.windSpeed, input.windHeightM ?? 10);
  const delta = slopeFromSaturation(t, e0);
  const gamma = psychrometricConstant(input.pressureKpa ?? pressureFromElevationKpa(input.elevationM));
  const et0 =
    (0.408 * delta * (rn - g) + gamma * ((37 * hours) / (t + 273)) * u2 * (e0 - ea)) / (delta + gamma * (1 + cd * u2));
  d.et0 = Math.max(0, et0);
  d.ea = ea;
  d.u2 = u2;
  d.ra = ra;
  d.rso = rso;
  d.fcd = fcd;
  d.rn = rn;
  d.g = g;
  return d;
}

/** The period's radiation {@link hourlyInto} reads, reused as {@link HOURLY}. */
const PERIOD: PeriodRadiation = { raMJ: NaN, sunElevationRad: NaN };
