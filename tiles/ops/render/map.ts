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
import { textPixels, GLYPH_H } from './glyphs.js';

const LEGEND_H = 44;

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

function legend(r: RenderInput, put: (x: number, y: number, c: Rgb, a?: number) => void, width: number, top: number): void {
  for (let y = top; y < top + LEGEND_H; y++) for (let x = 0; x < width; x++) put(x, y, [255, 255, 255]);
  const text = (s: string, x: number, y: number) => {
    for (const [dx, dy] of textPixels(s, 2).pixels) put(x + dx, y + dy, [0, 0, 0]);
  };
  const unitsW = textPixels(r.units, 2).w;
  const x0 = 8;
  const x1 = Math.max(x0 + 20, width - unitsW - 16);
  const barY = top + 6;
  const barH = 14;
  const labelY = barY + barH + 4;
  const s = r.scale;
  if (s.classes) {
    const step = (x1 - x0) / s.classes.length;
    s.classes.forEach((c, i) => {
      const a = Math.round(x0 + i * step);
      for (let x = a; x < Math.round(a + step) - 2; x++) for (let y = barY; y < barY + barH; y++) put(x, y, c.colour);
      text(c.label, a, labelY);
    });
  } else {
    for (let x = x0; x < x1; x++) {
      const c = s.colour(s.min + ((x - x0) / (x1 - x0 - 1)) * (s.max - s.min));
      for (let y = barY; y < barY + barH; y++) put(x, y, c);
    }
    const ticks = 4;
    for (let i = 0; i <= ticks; i++) {
      const v = s.min + (i / ticks) * (s.max - s.min);
      const label = String(Math.round(v * 100) / 100);
      const lw = textPixels(label, 2).w;
      const x = Math.round(x0 + (i / ticks) * (x1 - x0 - 1));
      for (let y = barY + barH; y < barY + barH + 3; y++) put(x, y, [0, 0, 0]);
      text(label, Math.min(Math.max(0, x - lw / 2), x1 - lw), labelY);
    }
  }
  text(r.units, width - unitsW - 6, barY + (barH - GLYPH_H * 2) / 2);
}
