/**
 * `meteopunto tiles render <product> --var <name> [--time ISO] [--out f.png] [--width n]`:
 * a PNG map of one variable at the time step nearest to --time (default: the
 * step nearest to now), written to --out (default
 * `$METEOPUNTO_DATA/renders/<product>-<var>-<time>.png`, so that a render
 * never litters the current directory, a checkout above all); prints where
 * the file went, the value range and the legend's ticks.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dataDir, rendersDir } from '../../config/paths.js';
import { openLiveVersion, readFieldSteps } from '../read/field-reader.js';
import { TileError } from '../errors.js';
import { scaleFor } from './render/colour-scale.js';
import { renderMap } from './render/map.js';
import { OpsUsageError } from './cli-ops.js';
import { notPublished } from './products-on-disk.js';

export interface RenderArgs {
  product: string;
  variable: string;
  timeMs?: number;
  out?: string;
  width?: string;
}

export async function render(a: RenderArgs): Promise<number> {
  const width = a.width === undefined ? 800 : Number(a.width);
  if (!Number.isInteger(width) || width < 64 || width > 4096) throw new OpsUsageError(`--width must be an integer in 64..4096, got '${a.width}'`);
  const v = await openLiveVersion(dataDir(), a.product);
  if (!v) throw await notPublished(a.product);
  const m = v.manifest;
  const info = m.variables[a.variable];
  if (!info) throw new OpsUsageError(`product '${a.product}' has no variable '${a.variable}' (it has: ${Object.keys(m.variables).join(', ')})`);
  let step = 0;
  let when = 'static';
  if (!info.static) {
    const times = m.times.map((t) => Date.parse(t));
    const t = a.timeMs ?? Date.now();
    if (a.timeMs !== undefined && (t < times[0]! || t > times[times.length - 1]!)) {
      throw new TileError('TIME_OUT_OF_RANGE', `${a.product} covers ${m.times[0]} to ${m.times[m.times.length - 1]}; --time ${new Date(t).toISOString()} is outside`, { product: a.product, from: m.times[0], to: m.times[m.times.length - 1] });
    }
    step = times.reduce((best, ti, i) => (Math.abs(ti - t) < Math.abs(times[best]! - t) ? i : best), 0);
    when = m.times[step]!;
  }
  const [field] = await readFieldSteps(v, a.variable, [step]);
  const scale = scaleFor(a.variable, info.units, field!);
  const png = renderMap({ grid: m.grid, field: field!, scale, units: info.units, width });
  let out: string;
  if (a.out !== undefined) {
    out = resolve(a.out);
  } else {
    mkdirSync(rendersDir(dataDir()), { recursive: true });
    out = join(rendersDir(dataDir()), `${a.product}-${a.variable}-${when.replace(/[:]/g, '').replace(/\.000Z$/, 'Z')}.png`);
  }
  writeFileSync(out, png);
  const [lo, hi] = finiteRange(field!);
  const values = lo === undefined ? 'no values' : `values ${printed(lo)}..${printed(hi!)} ${info.units}`;
  const legend = scale.classes ? `${scale.kind} scale` : `${scale.kind} scale ${scale.min}..${scale.max}, ticks ${scale.ticks.join(' ')}`;
  console.log(`wrote ${out} (${a.product} ${a.variable} at ${when}, ${values}; ${legend}${m.source.sample ? '; SAMPLE DATA' : ''})`);
  return 0;
}

function finiteRange(field: Float32Array): [number, number] | [undefined, undefined] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of field) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo === Infinity ? [undefined, undefined] : [lo, hi];
}

/** Six significant digits: float32 holds about seven, so its noise goes (4.400000095367432 → 4.4). */
function printed(v: number): string {
  return String(Number(v.toPrecision(6)));
}
