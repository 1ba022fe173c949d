/**
 * State of the sea from significant wave height: WMO-No. 306 Manual on Codes,
 * code table 3700 (= BUFR 0 22 061), with the Italian names used by Italian
 * marine bulletins and nautical references.
 *
 * Note 2 of the table: the exact bounding height belongs to the lower code
 * (4 m is coded 5). Code 0 means Hs = 0 exactly. Values refer to well-developed
 * wind waves of the open sea.
 */

/** Code table 3700: upper bound of Hs (inclusive), identifier, Italian and English names. */
export const SEA_STATE_TABLE = [
  { code: 0, maxM: 0, id: 'calm_glassy', it: 'calmo', en: 'Calm (glassy)' },
  { code: 1, maxM: 0.1, id: 'calm_rippled', it: 'quasi calmo', en: 'Calm (rippled)' },
  { code: 2, maxM: 0.5, id: 'smooth', it: 'poco mosso', en: 'Smooth (wavelets)' },
  { code: 3, maxM: 1.25, id: 'slight', it: 'mosso', en: 'Slight' },
  { code: 4, maxM: 2.5, id: 'moderate', it: 'molto mosso', en: 'Moderate' },
  { code: 5, maxM: 4, id: 'rough', it: 'agitato', en: 'Rough' },
  { code: 6, maxM: 6, id: 'very_rough', it: 'molto agitato', en: 'Very rough' },
  { code: 7, maxM: 9, id: 'high', it: 'grosso', en: 'High' },
  { code: 8, maxM: 14, id: 'very_high', it: 'molto grosso', en: 'Very high' },
  { code: 9, maxM: Infinity, id: 'phenomenal', it: 'tempestoso', en: 'Phenomenal' },
] as const;

/** Result of {@link seaState}. */
export interface SeaState {
  /** WMO 3700 code 0..9. */
  code: number;
  /** Italian name (e.g. 'mosso'). */
  label: string;
  /** Stable identifier (e.g. 'slight'). */
  id: string;
}

/**
 * WMO 3700 state of the sea.
 *
 * @param waveHeightM significant wave height Hs, m (≥ 0)
 * @returns code and Italian label, or null for NaN / negative heights
 */
export function seaState(waveHeightM: number): SeaState | null {
  if (!(waveHeightM >= 0)) return null;
  // A loop, not find with a closure: asked on every answer with `coastal`.
  let i = 0;
  while (!(waveHeightM <= SEA_STATE_TABLE[i]!.maxM)) i++;
  const row = SEA_STATE_TABLE[i]!;
  return { code: row.code, label: row.it, id: row.id };
}
