/**
 * Present-weather code (WMO-No. 306 code table 4677, the 28-code subset
 * Open-Meteo uses) → the stable condition and icon identifiers of weather.php,
 * and a derivation of that code from model fields when the NWP product carries
 * none.
 *
 * Note on semantics: WMO ww 0–3 describe the CHANGE of the sky during the past
 * hour; like Open-Meteo we use them for cloud amount (clear / mainly clear /
 * partly cloudy / overcast). Every other code means what WMO-No. 306 (Manual
 * on Codes, Vol. I.1, code table 4677) says: 96 is a slight or moderate
 * thunderstorm WITH HAIL, 99 a heavy one with hail (Open-Meteo's enum names
 * them "strong" and "heavy"; a product's 96 reports hail, not strength), and
 * 48 is fog depositing rime (galaverna; brina is hoar frost, not rime).
 */

/** One row of the code table. */
export interface WeatherCodeSpec {
  /** Stable condition identifier, snake_case English. */
  condition: string;
  /** Italian label for people. */
  it: string;
  /** Icon base name (kebab-case); `-day`/`-night` is appended when `dayNight`. */
  icon: string;
  /** Whether the icon has day and night variants (sun or moon visible). */
  dayNight: boolean;
  /** Open-Meteo's enum identifier for the same code (WeatherCode.swift), for cross-reference. */
  openMeteo: string;
}

/** The WMO 4677 subset, keyed by code. */
export const WEATHER_CODES = {
  0: { condition: 'clear', it: 'sereno', icon: 'clear', dayNight: true, openMeteo: 'clearSky' },
  1: { condition: 'mainly_clear', it: 'prevalentemente sereno', icon: 'mainly-clear', dayNight: true, openMeteo: 'mainlyClear' },
  2: { condition: 'partly_cloudy', it: 'parzialmente nuvoloso', icon: 'partly-cloudy', dayNight: true, openMeteo: 'partlyCloudy' },
  3: { condition: 'overcast', it: 'coperto', icon: 'overcast', dayNight: false, openMeteo: 'overcast' },
  45: { condition: 'fog', it: 'nebbia', icon: 'fog', dayNight: false, openMeteo: 'fog' },
  48: { condition: 'rime_fog', it: 'nebbia con galaverna', icon: 'fog', dayNight: false, openMeteo: 'depositingRimeFog' },
  51: { condition: 'light_drizzle', it: 'pioviggine debole', icon: 'drizzle', dayNight: false, openMeteo: 'lightDrizzle' },
  53: { condition: 'drizzle', it: 'pioviggine', icon: 'drizzle', dayNight: false, openMeteo: 'moderateDrizzle' },
  55: { condition: 'dense_drizzle', it: 'pioviggine intensa', icon: 'drizzle', dayNight: false, openMeteo: 'denseDrizzle' },
  56: { condition: 'light_freezing_drizzle', it: 'pioviggine congelantesi debole', icon: 'freezing-drizzle', dayNight: false, openMeteo: 'lightFreezingDrizzle' },
  57: { condition: 'freezing_drizzle', it: 'pioviggine congelantesi', icon: 'freezing-drizzle', dayNight: false, openMeteo: 'moderateOrDenseFreezingDrizzle' },
  61: { condition: 'light_rain', it: 'pioggia debole', icon: 'rain', dayNight: false, openMeteo: 'lightRain' },
  63: { condition: 'rain', it: 'pioggia', icon: 'rain', dayNight: false, openMeteo: 'moderateRain' },
  65: { condition: 'heavy_rain', it: 'pioggia forte', icon: 'heavy-rain', dayNight: false, openMeteo: 'heavyRain' },
  66: { condition: 'light_freezing_rain', it: 'pioggia congelantesi debole', icon: 'freezing-rain', dayNight: false, openMeteo: 'lightFreezingRain' },
  67: { condition: 'freezing_rain', it: 'pioggia congelantesi', icon: 'freezing-rain', dayNight: false, openMeteo: 'moderateOrHeavyFreezingRain' },
  71: { condition: 'light_snow', it: 'neve debole', icon: 'snow', dayNight: false, openMeteo: 'slightSnowfall' },
  73: { condition: 'snow', it: 'neve', icon: 'snow', dayNight: false, openMeteo: 'moderateSnowfall' },
  75: { condition: 'heavy_snow', it: 'neve forte', icon: 'heavy-snow', dayNight: false, openMeteo: 'heavySnowfall' },
  77: { condition: 'snow_grains', it: 'neve granulosa', icon: 'snow', dayNight: false, openMeteo: 'snowGrains' },
  80: { condition: 'light_rain_showers', it: 'rovesci deboli', icon: 'rain-showers', dayNight: true, openMeteo: 'slightRainShowers' },
  81: { condition: 'rain_showers', it: 'rovesci', icon: 'rain-showers', dayNight: true, openMeteo: 'moderateRainShowers' },
  82: { condition: 'violent_rain_showers', it: 'rovesci violenti', icon: 'heavy-rain', dayNight: false, openMeteo: 'heavyRainShowers' },
  85: { condition: 'light_snow_showers', it: 'rovesci di neve deboli', icon: 'snow-showers', dayNight: true, openMeteo: 'slightSnowShowers' },
  86: { condition: 'heavy_snow_showers', it: 'rovesci di neve forti', icon: 'snow-showers', dayNight: true, openMeteo: 'heavySnowShowers' },
  95: { condition: 'thunderstorm', it: 'temporale', icon: 'thunderstorm', dayNight: false, openMeteo: 'thunderstormSlightOrModerate' },
  96: { condition: 'thunderstorm_hail', it: 'temporale con grandine', icon: 'thunderstorm-hail', dayNight: false, openMeteo: 'thunderstormStrong' },
  99: { condition: 'thunderstorm_heavy_hail', it: 'temporale forte con grandine', icon: 'thunderstorm-hail', dayNight: false, openMeteo: 'thunderstormHeavy' },
} as const satisfies Record<number, WeatherCodeSpec>;

/** A code of the subset. */
export type WeatherCode = keyof typeof WEATHER_CODES;

/** Condition and icon identifiers of a code. */
export interface WeatherCondition {
  /** e.g. 'partly_cloudy'; 'unknown' for a code outside the subset. */
  condition: string;
  /** e.g. 'partly-cloudy-night'; 'unknown' for a code outside the subset. */
  icon: string;
}

/**
 * Condition and icon identifiers for a WMO 4677 code.
 *
 * @param code WMO 4677 code of the Open-Meteo subset (a float from a grid is
 *   rounded); anything else gives { condition: 'unknown', icon: 'unknown' }
 * @param isDay whether the Sun is up (solar zenith < 90°), for the icon variant
 */
export function weatherCondition(code: number, isDay: boolean): WeatherCondition {
  const spec = weatherCodeSpec(code);
  if (!spec) return { condition: 'unknown', icon: 'unknown' };
  return { condition: spec.condition, icon: spec.dayNight ? `${spec.icon}-${isDay ? 'day' : 'night'}` : spec.icon };
}

/** The table row of a code, or undefined outside the subset. */
export function weatherCodeSpec(code: number): WeatherCodeSpec | undefined {
  if (!Number.isFinite(code)) return undefined;
  return (WEATHER_CODES as Record<number, WeatherCodeSpec>)[Math.round(code)];
}

/** Model state from which a present-weather code is derived. */
export interface WeatherState {
  /** Total cloud cover, %. */
  cloudCoverPct: number;
  /** Total precipitation over the step, mm (water equivalent). */
  precipitationMm: number;
  /** Fraction of the precipitation falling as snow, 0..1 (used when snowfallCm is absent). */
  snowfallFraction?: number;
  /** Snowfall over the step, cm of fresh snow (takes precedence over snowfallFraction). */
  snowfallCm?: number;
  /** Convective precipitation over the step, mm: > 0 makes precipitation showers. */
  convectivePrecipitationMm?: number;
  /** Convective available potential energy, J/kg. */
  capeJPerKg?: number;
  /** Lifted index, K. */
  liftedIndexK?: number;
  /** Horizontal visibility, m. */
  visibilityM?: number;
  /** Categorical freezing rain flag from a model that has one (GFS CFRZR); overrides the diagnosis from temperature2mC. */
  freezingRain?: boolean;
  /** 2 m temperature, °C: at or below 0 °C, mostly liquid precipitation (snow known) is freezing rain or drizzle. */
  temperature2mC?: number;
  /** Length of the step the amounts refer to, h (default 1). */
  stepHours?: number;
}

/** Fresh-snow depth per mm of water equivalent, cm/mm (density ~ 143 kg/m³; Open-Meteo uses 0.7). */
export const SNOW_CM_PER_MM_WATER = 0.7;

/**
 * Derive a WMO 4677 code from model fields, for products with no weather code.
 *
 * Decision order and thresholds, per hour (amounts are divided by stepHours),
 * those of Open-Meteo's WeatherCode.calculate() (open-meteo/open-meteo,
 * Sources/App/Helper/WeatherCode.swift, after the COSMO scheme, Hoffmann,
 * COSMO Newsletter 6, and DWD Promet 28), freezing precipitation checked
 * right after thunderstorms as there:
 *  1. thunderstorm: CAPE ≥ 2000 J/kg and (lifted index ≤ −3 K or unknown) →
 *     95. Never 96 or 99: WMO 4677 gives those to a thunderstorm with hail
 *     observed, and no field a model here carries diagnoses hail (Open-Meteo
 *     calls gusts ≥ 18 km/h "strong" and codes them 96, which would report
 *     hail in nearly every derived thunderstorm);
 *  2. freezing precipitation (the model's flag, else 2 m temperature ≤ 0 °C
 *     with at least half the water falling liquid — the AMS Glossary of
 *     Meteorology's freezing rain/drizzle: liquid drops that freeze on impact
 *     with a surface at or below 0 °C): 0.1–0.5 mm/h → 56, 0.5–1.3 → 57,
 *     1.3–2.5 → 66, ≥ 2.5 → 67;
 *  3. showers (convective precipitation > 0 or CAPE ≥ 800 J/kg): snow
 *     0.01–0.8 cm/h → 85, ≥ 0.8 → 86; rain 1.3–2.5 mm/h → 80, ≥ 2.5 → 81
 *     (less than 1.3 mm/h falls through to the drizzle/rain steps);
 *  4. snowfall: 0.01–0.2 cm/h → 71, 0.2–0.8 → 73, ≥ 0.8 → 75;
 *  5. precipitation: 0.1–0.5 mm/h → 51, 0.5–1.0 → 53, 1.0–1.3 → 55,
 *     1.3–2.5 → 61, 2.5–7.6 → 63, ≥ 7.6 → 65;
 *  6. fog: visibility ≤ 1000 m → 45;
 *  7. cloud cover: < 20 % → 0, < 50 → 1, < 80 → 2, else 3.
 * Intervals are [lower, upper). Snowfall, if not given, is
 * precipitation × snowfallFraction × 0.7 cm/mm. Without snowfall or a snow
 * fraction the phase is unknown and no freezing precipitation is diagnosed.
 *
 * @returns WMO 4677 code, or NaN when cloud cover or precipitation is not finite
 */
export function weatherCodeFromState(state: WeatherState): number {
  const { cloudCoverPct, precipitationMm } = state;
  if (!Number.isFinite(cloudCoverPct) || !Number.isFinite(precipitationMm)) return NaN;
  const dt = state.stepHours && state.stepHours > 0 ? state.stepHours : 1;
  const precip = Math.max(0, precipitationMm) / dt;
  const snowGiven = state.snowfallCm !== undefined && Number.isFinite(state.snowfallCm);
  const snowCm = snowGiven ? Math.max(0, state.snowfallCm!) / dt : precip * clamp01(state.snowfallFraction ?? 0) * SNOW_CM_PER_MM_WATER;
  const phaseKnown = snowGiven || (state.snowfallFraction !== undefined && Number.isFinite(state.snowfallFraction));
  const t2m = state.temperature2mC;
  const freezing = state.freezingRain ?? (phaseKnown && t2m !== undefined && t2m <= 0 && snowCm / SNOW_CM_PER_MM_WATER <= precip / 2);
  const cape = state.capeJPerKg;

  if (cape !== undefined && cape >= 2000 && (state.liftedIndexK === undefined || state.liftedIndexK <= -3)) return 95;
  if (freezing) {
    if (precip >= 2.5) return 67;
    if (precip >= 1.3) return 66;
    if (precip >= 0.5) return 57;
    if (precip >= 0.1) return 56;
  }
  if ((state.convectivePrecipitationMm ?? 0) > 0 || (cape ?? 0) >= 800) {
    if (snowCm >= 0.8) return 86;
    if (snowCm >= 0.01) return 85;
    if (precip >= 2.5) return 81;
    if (precip >= 1.3) return 80;
  }
  if (snowCm >= 0.8) return 75;
  if (snowCm >= 0.2) return 73;
  if (snowCm >= 0.01) return 71;
  if (precip >= 7.6) return 65;
  if (precip >= 2.5) return 63;
  if (precip >= 1.3) return 61;
  if (precip >= 1.0) return 55;
  if (precip >= 0.5) return 53;
  if (precip >= 0.1) return 51;
  if (state.visibilityM !== undefined && state.visibilityM <= 1000) return 45;
  if (cloudCoverPct < 20) return 0;
  if (cloudCoverPct < 50) return 1;
  if (cloudCoverPct < 80) return 2;
  return 3;
}

function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}
