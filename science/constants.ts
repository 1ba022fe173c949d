/**
 * Physical and empirical constants of the derived-index library, one table
 * with units and the reference each comes from. Formula-specific coefficient
 * sets (the 210 UTCI coefficients, category tables) live beside their formula.
 */

/** Magnus form over water, Alduchov & Eskridge (1996) J. Appl. Meteor. 35:601-609, "AERK" set. */
export const MAGNUS_WATER = {
  /** hPa: saturation vapour pressure at 0 °C */
  c: 6.1094,
  /** dimensionless */
  a: 17.625,
  /** °C */
  b: 243.04,
} as const;

/** Magnus form over ice, WMO-No. 8 (CIMO Guide) Annex 4.B (Sonntag 1990): ei = 6.112 exp(22.46 t/(272.62+t)) hPa. */
export const MAGNUS_ICE = {
  /** hPa */
  c: 6.112,
  /** dimensionless */
  a: 22.46,
  /** °C */
  b: 272.62,
} as const;

/** 0 °C in kelvin. */
export const KELVIN_OFFSET = 273.15;

/** Stefan–Boltzmann constant, W m⁻² K⁻⁴ (CODATA 2018). */
export const STEFAN_BOLTZMANN = 5.670374419e-8;

/** Standard gravity, m s⁻² (CGPM 1901; WMO-No. 8). */
export const GRAVITY = 9.80665;

/** Gas constant of dry air, J kg⁻¹ K⁻¹ (WMO-No. 8 / gridpp sea_level_pressure). */
export const R_DRY_AIR = 287.05;

/** Standard-atmosphere lapse rate, K m⁻¹ (ICAO Doc 7488). */
export const STANDARD_LAPSE_RATE_K_PER_M = 0.0065;

/** Solar constant used by Liljegren et al. (2008) wbgt.c, W m⁻². */
export const SOLAR_CONSTANT_LILJEGREN = 1367;

/** Solar constant used by FAO-56 (Allen et al. 1998) eq. 21, MJ m⁻² min⁻¹. */
export const SOLAR_CONSTANT_FAO56_MJ_PER_M2_MIN = 0.082;
