/**
 * Colour scales for `tiles render`, chosen by the variable's kind: diverging
 * around 0 for temperatures (ColorBrewer RdBu), sequential from 0 for
 * amounts (ColorBrewer YlGnBu: precipitation, snow), categorical for WMO
 * weather codes (one colour per code group of WMO table 4677 as used by
 * Open-Meteo), sequential otherwise (viridis). ColorBrewer: Harrower &
 * Brewer (2003), The Cartographic Journal 40(1). Continuous scales end on
 * round numbers and carry their legend ticks: multiples of 1, 2 or 5 × 10^n
 * (d3-array's `nice` and `ticks`).
 */
import { nice, ticks } from 'd3-array';

export type Rgb = [number, number, number];

export interface ColourScale {
  kind: 'diverging' | 'sequential' | 'categorical';
  min: number;
  max: number;
  /** Continuous scales: the legend's tick values, min and max among them. */
  ticks: number[];
  colour(v: number): Rgb;
  /** Categorical scales: the classes shown in the legend. */
  classes?: { label: string; colour: Rgb }[];
}

const RDBU: Rgb[] = [[5, 48, 97], [33, 102, 172], [67, 147, 195], [146, 197, 222], [209, 229, 240], [247, 247, 247], [253, 219, 199], [244, 165, 130], [214, 96, 77], [178, 24, 43], [103, 0, 31]];
const YLGNBU: Rgb[] = [[255, 255, 217], [237, 248, 177], [199, 233, 180], [127, 205, 187], [65, 182, 196], [29, 145, 192], [34, 94, 168], [37, 52, 148], [8, 29, 88]];
const VIRIDIS: Rgb[] = [[68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142], [31, 158, 137], [53, 183, 121], [109, 205, 89], [180, 222, 44], [253, 231, 37]];

/** WMO 4677 code groups (as in the interface spec's weather_code): code range → colour. */
const WEATHER_GROUPS: { from: number; to: number; label: string; colour: Rgb }[] = [
  { from: 0, to: 1, label: '0-1', colour: [255, 221, 87] },
  { from: 2, to: 3, label: '2-3', colour: [190, 190, 190] },
  { from: 45, to: 48, label: '45', colour: [140, 140, 160] },
  { from: 51, to: 57, label: '51', colour: [150, 210, 150] },
  { from: 61, to: 67, label: '61', colour: [40, 140, 60] },
  { from: 71, to: 77, label: '71', colour: [120, 200, 255] },
  { from: 80, to: 82, label: '80', colour: [30, 90, 200] },
  { from: 85, to: 86, label: '85', colour: [200, 120, 255] },
  { from: 95, to: 99, label: '95', colour: [220, 30, 30] },
];

function ramp(stops: Rgb[], t: number): Rgb {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = stops[i]!;
  const b = stops[i + 1]!;
  return [Math.round(a[0] + f * (b[0] - a[0])), Math.round(a[1] + f * (b[1] - a[1])), Math.round(a[2] + f * (b[2] - a[2]))];
}

/** About this many intervals between ticks: enough to read a value off, few enough to label. */
const TICK_COUNT = 5;

/** The round bounds around [lo, hi] and the ticks between them. */
function roundRange(lo: number, hi: number): { min: number; max: number; ticks: number[] } {
  const [min, max] = nice(lo, hi > lo ? hi : lo + 1, TICK_COUNT);
  return { min, max, ticks: ticks(min, max, TICK_COUNT) };
}

function isTemperature(name: string, units: string): boolean {
  return units === '°C' || units === 'K' || /temperature|dew_point/.test(name);
}

function isAmount(name: string): boolean {
  return /precipitation|rain|snow|showers/.test(name);
}

/** The scale for variable `name` in `units` over the finite values of `field`. */
export function scaleFor(name: string, units: string, field: Float32Array): ColourScale {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of field) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) [lo, hi] = [0, 1];
  if (name === 'weather_code') {
    return {
      kind: 'categorical', min: 0, max: 99, ticks: [],
      colour: (v) => WEATHER_GROUPS.find((g) => v >= g.from && v <= g.to)?.colour ?? [0, 0, 0],
      classes: WEATHER_GROUPS.map(({ label, colour }) => ({ label, colour })),
    };
  }
  if (isTemperature(name, units) && units !== 'K') {
    // Symmetric around 0 °C, so that white is freezing.
    const m0 = Math.max(Math.abs(lo), Math.abs(hi), 1);
    const r = roundRange(-m0, m0);
    const m = r.max;
    return { kind: 'diverging', ...r, colour: (v) => ramp(RDBU, (v + m) / (2 * m)) };
  }
  if (isAmount(name)) {
    const r = roundRange(0, Math.max(hi, 0.1));
    return { kind: 'sequential', ...r, colour: (v) => ramp(YLGNBU, v / r.max) };
  }
  const r = roundRange(lo, hi);
  return { kind: 'sequential', ...r, colour: (v) => ramp(VIRIDIS, (v - r.min) / (r.max - r.min)) };
}
