/**
 * Decoded values of coordinate variables (times as Unix ms, levels, periods),
 * cached per opened file because every data variable of a file shares them.
 */
import type { NcDataset, NcVariable } from './model.js';
import { attrNumber, attrText } from './model.js';
import { decodeTimes, durationUnitMs, TimeUnitsError } from './cf-time.js';
import { effectiveTimeUnits } from './cf-time-reference.js';

export interface TimeCoord {
  ms: Float64Array;
  /** [lower, upper] per value, Unix ms, when the coordinate has `bounds`. */
  boundsMs?: Float64Array;
}

export class CoordCache {
  private readonly numbers = new Map<string, Float64Array>();
  private readonly times = new Map<string, TimeCoord>();

  constructor(private readonly ds: NcDataset) {}

  variable(name: string): NcVariable | undefined {
    return this.ds.variables.find((v) => v.name === name);
  }

  /** The 1-D coordinate variable of dimension `dim` (same name, one dimension), if any. */
  coordinateOf(dim: string): NcVariable | undefined {
    const v = this.variable(dim);
    return v && v.dims.length === 1 && v.dims[0] === dim ? v : undefined;
  }

  /** Numeric values with scale_factor/add_offset applied (coordinates are rarely packed, but may be). */
  values(v: NcVariable): Float64Array {
    let out = this.numbers.get(v.name);
    if (!out) {
      const raw = v.read();
      const scale = attrNumber(v, 'scale_factor') ?? 1;
      const offset = attrNumber(v, 'add_offset') ?? 0;
      out = Float64Array.from(raw, (x) => x * scale + offset);
      this.numbers.set(v.name, out);
    }
    return out;
  }

  /** Unix ms of a time coordinate (and of its bounds); throws TimeUnitsError on bad units. */
  time(v: NcVariable): TimeCoord {
    let t = this.times.get(v.name);
    if (!t) {
      // CAMS Europe: "hours" with the date in long_name (cf-time-reference.ts).
      const units = effectiveTimeUnits(v) ?? attrText(v, 'units');
      if (!units) throw new TimeUnitsError(`time coordinate ${v.name} has no units`);
      const calendar = attrText(v, 'calendar');
      t = { ms: decodeTimes(this.values(v), units, calendar) };
      const bName = attrText(v, 'bounds');
      const b = bName ? this.variable(bName) : undefined;
      if (b && b.shape.length === v.shape.length + 1 && b.shape[b.shape.length - 1] === 2) {
        t.boundsMs = decodeTimes(this.values(b), attrText(b, 'units') ?? units, attrText(b, 'calendar') ?? calendar);
      }
      this.times.set(v.name, t);
    }
    return t;
  }

  /** A forecast_period coordinate as milliseconds. */
  periodMs(v: NcVariable): Float64Array {
    const unitMs = durationUnitMs(attrText(v, 'units') ?? 'hours');
    return this.values(v).map((x) => x * unitMs);
  }
}
