/**
 * Mean radiant temperature of a standing person outdoors from the radiation
 * fluxes an NWP product carries.
 *
 * Method: the six-direction / cylinder approximation used for ERA5-HEAT and
 * ecmwf/thermofeel (Di Napoli C., Hogan R.J., Pappenberger F. (2020) Mean
 * radiant temperature from global-scale numerical weather prediction models,
 * Int. J. Biometeorol. 64:1233-1245), after ISO 7726 and VDI 3787-2:
 *
 * Tmrt⁴ = (1/σ) [ fa (L↓ + L↑) + (αir/εp) ( fa (D↓ + S↑) + fp I* ) ]
 *
 * fa = 0.5 (isotropic half-spaces), αir = 0.7 (body shortwave absorptivity),
 * εp = 0.97 (body emissivity), fp = 0.308 cos(γ (0.998 − γ²/50000)) the
 * projected-area factor of a standing person (γ solar elevation in degrees;
 * Fanger 1970 fit), I* direct normal irradiance = direct horizontal / cos θ.
 * Upward fluxes are rarely forecast: S↑ = albedo × global, L↑ = εs σ Ts⁴ with
 * Ts ≈ air temperature unless a skin temperature is given.
 */
import { STEFAN_BOLTZMANN } from './constants.js';

/** Inputs of {@link meanRadiantTemperature}. */
export interface MrtInput {
  /** Air temperature, °C (stands in for the ground temperature if surfaceTemperature is absent). */
  temperature: number;
  /** Global horizontal shortwave irradiance (downward), W/m². */
  shortwaveRadiation: number;
  /** Direct (beam) irradiance on the horizontal plane, W/m². */
  directRadiation: number;
  /** Downward longwave irradiance, W/m². */
  longwaveRadiation: number;
  /** Cosine of the solar zenith angle (≤ 0 with the Sun down). */
  cosZenith: number;
  /** Ground temperature, °C (optional). */
  surfaceTemperature?: number;
  /** Ground shortwave albedo (default 0.2, grass/urban average). */
  albedo?: number;
  /** Ground longwave emissivity (default 0.97). */
  surfaceEmissivity?: number;
}

/** Body constants of the method (Di Napoli et al. 2020; ISO 7726). */
export const MRT_CONSTANTS = { fa: 0.5, absorptivity: 0.7, emissivity: 0.97 } as const;

/** Ground defaults when none is given: shortwave albedo (grass/urban average) and longwave emissivity. */
export const MRT_GROUND = { albedo: 0.2, emissivity: 0.97 } as const;

/** cos θ below which the beam is folded into the diffuse part (Sun < ~2.9° high). */
const MIN_COS_ZENITH_FOR_BEAM = 0.05;

/**
 * Projected-area factor of a standing person for the direct beam.
 *
 * fp = 0.308 cos(γ (0.998 − γ²/50000)), γ = solar elevation, degrees
 */
export function projectedAreaFactor(elevationDeg: number): number {
  const g = Math.max(0, elevationDeg);
  return 0.308 * Math.cos(((g * (0.998 - (g * g) / 50000)) * Math.PI) / 180);
}

/**
 * Mean radiant temperature (see module comment for the equation).
 *
 * Valid for open, unshaded terrain; flux inputs are clamped at 0. Near the
 * horizon (cos θ < 0.05) the direct part is treated as diffuse to avoid
 * dividing by a vanishing cos θ.
 *
 * @returns Tmrt, °C (NaN when an input is not finite)
 */
export function meanRadiantTemperature(input: MrtInput): number {
  const { temperature, cosZenith } = input;
  const sw = Math.max(0, input.shortwaveRadiation);
  let direct = Math.min(Math.max(0, input.directRadiation), sw);
  const lwDown = Math.max(0, input.longwaveRadiation);
  const albedo = input.albedo ?? MRT_GROUND.albedo;
  const epsS = input.surfaceEmissivity ?? MRT_GROUND.emissivity;
  const tsK = (input.surfaceTemperature ?? temperature) + 273.15;
  // Spelled out rather than [..].every(): this runs once per cell-hour at ingest (an array per call was most of its cost).
  const finite = Number.isFinite;
  if (!(finite(temperature) && finite(sw) && finite(direct) && finite(lwDown) && finite(cosZenith) && finite(tsK))) return NaN;

  let dni = 0;
  if (cosZenith >= MIN_COS_ZENITH_FOR_BEAM) dni = direct / cosZenith;
  else direct = 0;
  const diffuseDown = sw - direct;
  const swUp = albedo * sw;
  const lwUp = epsS * STEFAN_BOLTZMANN * tsK ** 4;
  const elevationDeg = (Math.asin(Math.max(-1, Math.min(1, cosZenith))) * 180) / Math.PI;
  const { fa, absorptivity, emissivity } = MRT_CONSTANTS;
  const absorbed =
    fa * (lwDown + lwUp) + (absorptivity / emissivity) * (fa * (diffuseDown + swUp) + projectedAreaFactor(elevationDeg) * dni);
  return (absorbed / STEFAN_BOLTZMANN) ** 0.25 - 273.15;
}
