/**
 * On-disk packing of a variable: int16 with CF `scale_factor`/`add_offset`
 * where the value range fits at the variable's precision, else float32.
 *
 * CF conventions §8.1 (packed data): unpacked = packed × scale_factor + add_offset.
 * The int16 minimum (-32768) is reserved as `_FillValue` for NaN, so the
 * usable packed range is -32767..32767.
 */

/** The int16 fill value (NaN / missing), also the Zarr `fill_value`. */
export const INT16_FILL = -32768;
const INT16_MAX = 32767;

export type Packing =
  | { dtype: 'int16'; scale: number; offset: number }
  | { dtype: 'float32' };

/** Finite min and max over every array (NaN ignored); null when all NaN. `from`: a range to extend. */
export function finiteRange(arrays: readonly Float32Array[], from: { min: number; max: number } | null = null): { min: number; max: number } | null {
  let min = from?.min ?? Infinity;
  let max = from?.max ?? -Infinity;
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  return min <= max ? { min, max } : null;
}

/**
 * Choose int16 when (max − min) / precision fits in the packed range with a
 * step of margin (the offset is rounded to a multiple of the precision, so
 * decoded values are exact multiples of it), else float32. ±Infinity forces
 * float32.
 */
export function choosePacking(arrays: readonly Float32Array[], precision: number): Packing {
  return packingForRange(finiteRange(arrays), precision);
}

/** {@link choosePacking} from the range of the values (a writer that never holds them all at once). */
export function packingForRange(r: { min: number; max: number } | null, precision: number): Packing {
  if (!(precision > 0) || !Number.isFinite(precision)) throw new RangeError(`precision must be a positive number, got ${precision}`);
  if (!r) return { dtype: 'int16', scale: precision, offset: 0 };
  if (!Number.isFinite(r.min) || !Number.isFinite(r.max)) return { dtype: 'float32' };
  const offset = Math.round((r.min + r.max) / 2 / precision) * precision;
  const lo = Math.round((r.min - offset) / precision);
  const hi = Math.round((r.max - offset) / precision);
  if (lo < -INT16_MAX || hi > INT16_MAX) return { dtype: 'float32' };
  // Rounding the offset to the precision grid keeps it tidy in the metadata (e.g. 12.34, not 12.3400000001).
  return { dtype: 'int16', scale: precision, offset: tidy(offset, precision) };
}

/** Round a multiple of `step` so that its decimal form carries no float noise. */
function tidy(v: number, step: number): number {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step)) + 1);
  return Number(v.toFixed(Math.min(decimals, 15)));
}

/** Pack one value (NaN → fill). */
export function packInt16(v: number, scale: number, offset: number): number {
  if (Number.isNaN(v)) return INT16_FILL;
  return clampRound((v - offset) / scale);
}

/**
 * `Math.round(y)` clamped to ±32767 (choosePacking guarantees the range; the clamp guards against float edge cases
 * only), computed as `floor(y + 0.5)` after the clamp: in the loop a year's ingest runs on every stored value,
 * Math.round cost 8–10 ns a value on a 2-core AMD VM against about 3 for this (docs/benchmarks-journal.md, "End of
 * session on 66b5483, and the ERA5 year on a slower VM"). The two agree for every y but 0.5 − 2⁻⁵⁴, whose y + 0.5
 * rounds up to 1 (taken apart); the clamp first gives what Math.round then the clamp gives (±32767 from ±32767 on,
 * NaN excluded by the caller).
 */
export function clampRound(y: number): number {
  if (y >= INT16_MAX) return INT16_MAX;
  if (y <= -INT16_MAX) return -INT16_MAX;
  return y === 0.49999999999999994 ? 0 : Math.floor(y + 0.5);
}
