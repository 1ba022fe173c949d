/**
 * Output precision of the Developer fields (as api/weather/precision.ts for
 * the Free fields): computed at full precision, rounded once.
 */
export const DEVELOPER_DECIMALS = {
  /** °C: UTCI, Tmrt, WBGT, frost point, ground temperature (as the response's temperature). */
  temperature: 1,
  /** UV index: one decimal (WHO reports integers; the category uses the rounded value). */
  uv_index: 1,
  /** Cloud modification factor, 0..1. */
  cloud_modification: 2,
  /** ET0, mm per hour. */
  et0: 2,
} as const;
