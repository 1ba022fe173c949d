/**
 * A PNG map of one field on its grid: equirectangular over the grid's
 * geographic box (x stretched by cos(mid-latitude) so that shapes look
 * right), each pixel the nearest cell's colour, transparent where the cell
 * is missing or outside the grid; Italy's outlines drawn over it; a legend
 * strip below with the scale and the units. Encoded by pngjs.
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { gridBounds, gridIndexOf, type GridDef } from '../../../geo/grid.js';
import type { ColourScale, Rgb } from './colour-scale.js';
import { textPixels, GLYPH_H, LINE_H } from './glyphs.js';

const BAR_H = 14;
/** The bar, its tick marks and a line of labels (font of 9 rows at scale 2). */
const LEGEND_H = 6 + BAR_H + 5 + 2 * LINE_H + 3;

interface Outline { features: { geometry: { type: 'MultiLineString'; coordinates: number[][][] } }[] }

/** outlines.geojson beside this module (source tree), or in the source tree when running from dist/. */
function loadOutlines(): Outline {
  const here = fileURLToPath(new URL('./outlines.geojson', import.meta.url));
  const src = fileURLToPath(new URL('../../../../tiles/ops/render/outlines.geojson', import.meta.url));
  return JSON.parse(readFileSync(existsSync(here) ? here : src, 'utf8')) as Outline;
}

export interface RenderInput {
  grid: GridDef;
  /** Row-major [y][x] values, NaN = missing. */
  field: Float32Array;
  scale: ColourScale;
  units: string;
  width: number;
}

export function renderMap(r: RenderInput): Buffer {
  const [w0, s0, e0, n0] = gridBounds(r.grid);
  const k = Math.cos(((s0 + n0) / 2) * (Math.PI / 180));
  const width = r.width;
  const mapH = Math.max(1, Math.round((width * (n0 - s0)) / ((e0 - w0) * k)));
  const png = new PNG({ width, height: mapH + LEGEND_H, colorType: 6 });
  const d = png.data; // zero-filled: transparent
  const put = (x: number, y: number, c: Rgb, a = 255) => {
    if (x < 0 || y < 0 || x >= width || y >= png.height) return;
    const o = (y * width + x) * 4;
    d[o] = c[0]; d[o + 1] = c[1]; d[o + 2] = c[2]; d[o + 3] = a;
  };
  const lonOf = (px: number) => w0 + ((px + 0.5) / width) * (e0 - w0);
  const latOf = (py: number) => n0 - ((py + 0.5) / mapH) * (n0 - s0);
  const { nx } = r.grid;
  for (let py = 0; py < mapH; py++) {
    const lat = latOf(py);
    for (let px = 0; px < width; px++) {
      const ix = gridIndexOf(r.grid, lat, lonOf(px));
      if (!ix) continue;
      const v = r.field[Math.round(ix.y) * nx + Math.round(ix.x)]!;
      if (Number.isNaN(v)) continue;
      put(px, py, r.scale.colour(v));
    }
  }
  // Outlines: segments sampled at half-pixel steps.
  const toPx = (lon: number, lat: number): [number, number] => [((lon - w0) / (e0 - w0)) * width - 0.5, ((n0 - lat) / (n0 - s0)) * mapH - 0.5];
  for (const f of loadOutlines().features) {
    for (const line of f.geometry.coordinates) {
      for (let i = 1; i < line.length; i++) {
        const [ax, ay] = toPx(line[i - 1]![0]!, line[i - 1]![1]!);
        const [bx, by] = toPx(line[i]![0]!, line[i]![1]!);
        const n = Math.max(1, Math.ceil(2 * Math.hypot(bx - ax, by - ay)));
        for (let t = 0; t <= n; t++) {
          const x = Math.round(ax + ((bx - ax) * t) / n);
          const y = Math.round(ay + ((by - ay) * t) / n);
          if (y < mapH) put(x, y, [20, 20, 20]);
        }
      }
    }
  }
  legend(r, put, width, mapH);
  return PNG.sync.write(png);
}

/** Ink stays this many pixels inside the image's edges. */
const MARGIN = 6;

function legend(r: RenderInput, put: (x: number, y: number, c: Rgb, a?: number) => void, width: number, top: number): void {
  for (let y = top; y < top + LEGEND_H; y++) for (let x = 0; x < width; x++) put(x, y, [255, 255, 255]);
  const fs = fontScale(width);
  const text = (s: string, x: number, y: number) => {
    for (const [dx, dy] of textPixels(s, fs).pixels) put(x + dx, y + dy, [0, 0, 0]);
  };
  const textW = (s: string) => textPixels(s, fs).w;
  const unitsW = textW(r.units);
  const barY = top + 6;
  const labelY = barY + BAR_H + 5;
  const s = r.scale;
  const labels = s.classes ? s.classes.map((c) => c.label) : s.ticks.map(tickLabel);
  const firstW = textW(labels[0] ?? '');
  const lastW = textW(labels[labels.length - 1] ?? '');
  const x0 = s.classes ? MARGIN : MARGIN + Math.ceil(firstW / 2);
  const x1 = Math.max(x0 + 20, Math.min(width - MARGIN - unitsW - 8, width - MARGIN - Math.ceil(lastW / 2)));
  if (s.classes) {
    const step = (x1 - x0) / s.classes.length;
    const every = thinning(s.classes.map((c) => textW(c.label)), step);
    s.classes.forEach((c, i) => {
      const a = Math.round(x0 + i * step);
      for (let x = a; x < Math.round(a + step) - 2; x++) for (let y = barY; y < barY + BAR_H; y++) put(x, y, c.colour);
      if (i % every === 0) text(c.label, a, labelY);
    });
  } else {
    const xOf = (v: number) => Math.round(x0 + ((v - s.min) / (s.max - s.min)) * (x1 - x0 - 1));
    for (let x = x0; x < x1; x++) {
      const c = s.colour(s.min + ((x - x0) / (x1 - x0 - 1)) * (s.max - s.min));
      for (let y = barY; y < barY + BAR_H; y++) put(x, y, c);
    }
    const widths = labels.map(textW);
    const every = thinning(widths, (x1 - x0) / Math.max(1, labels.length - 1));
    s.ticks.forEach((v, i) => {
      const x = xOf(v);
      for (let y = barY + BAR_H; y < barY + BAR_H + 3; y++) put(x, y, [0, 0, 0]);
      if (i % every !== 0 && i !== labels.length - 1) return;
      const lw = widths[i]!;
      text(labels[i]!, Math.min(Math.max(MARGIN, Math.round(x - lw / 2)), width - MARGIN - lw), labelY);
    });
  }
  text(r.units, width - MARGIN - unitsW, barY + Math.round((BAR_H - GLYPH_H * fs) / 2));
}

/** Pixels per font pixel: 2 where the map is wide enough for it. */
function fontScale(width: number): number {
  return width >= 320 ? 2 : 1;
}

/** Label every n-th tick so that neighbouring labels keep a gap (n = 1 when they all fit). */
function thinning(widths: number[], spacing: number): number {
  const widest = Math.max(0, ...widths);
  return Math.max(1, Math.ceil((widest + 8) / Math.max(1, spacing)));
}

/** A tick as printed: its shortest decimal form (ticks are round: 0.02, 2500, -10). */
function tickLabel(v: number): string {
  return String(Object.is(v, -0) ? 0 : v);
}
