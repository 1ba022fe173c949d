/**
 * Reads the legend of a `tiles render` PNG, decoded with pngjs, from its
 * pixels alone: the black ink's bounding box, the tick marks under the
 * colour bar and the labels below them (ink columns grouped into words).
 * Knows no layout constant of the renderer: the bar is found as the rows
 * of the legend with the most coloured pixels; the units' descenders
 * (`µ`, `g`) may reach 4 pixels below it.
 */
import { PNG } from 'pngjs';

export interface LegendInk {
  width: number;
  height: number;
  /** Bounding box of every black pixel below the map. */
  box: { left: number; right: number; top: number; bottom: number };
  /** Separate black marks in the row just under the bar. */
  tickMarks: number;
  /** Label extents (columns), left to right. */
  labels: { left: number; right: number }[];
}

/** Ink columns closer than this belong to one label (glyphs are spaced 2 px, a narrow `1` leaves 6). */
const WORD_GAP = 8;

export function legendInk(file: Buffer, mapH: number): LegendInk {
  const png = PNG.sync.read(file);
  const { width, height, data } = png;
  const at = (x: number, y: number) => data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4);
  const black = (x: number, y: number) => { const p = at(x, y); return p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 255; };
  const coloured = (x: number, y: number) => { const p = at(x, y); return p[3] === 255 && !(p[0] === 255 && p[1] === 255 && p[2] === 255) && !(p[0] === 0 && p[1] === 0 && p[2] === 0); };
  const box = { left: width, right: -1, top: height, bottom: -1 };
  let barBottom = mapH;
  for (let y = mapH; y < height; y++) {
    let c = 0;
    for (let x = 0; x < width; x++) {
      if (coloured(x, y)) c++;
      if (!black(x, y)) continue;
      box.left = Math.min(box.left, x); box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y); box.bottom = Math.max(box.bottom, y);
    }
    if (c > width / 3) barBottom = y;
  }
  const runs = (cols: boolean[], gap: number) => {
    const out: { left: number; right: number }[] = [];
    cols.forEach((on, x) => {
      if (!on) return;
      const last = out[out.length - 1];
      if (last && x - last.right <= gap) last.right = x;
      else out.push({ left: x, right: x });
    });
    return out;
  };
  // Marks: under the bar's own columns (the units beside the bar may reach below it).
  const barCols = Array.from({ length: width }, (_, x) => coloured(x, barBottom));
  const [barLeft, barRight] = [barCols.indexOf(true), barCols.lastIndexOf(true)];
  const markRow = Array.from({ length: width }, (_, x) => x >= barLeft && x <= barRight && black(x, barBottom + 1));
  // Labels: below the marks and the units' descenders.
  const labelCols = Array.from({ length: width }, (_, x) => {
    for (let y = barBottom + 5; y < height; y++) if (black(x, y)) return true;
    return false;
  });
  return { width, height, box, tickMarks: runs(markRow, 1).length, labels: runs(labelCols, WORD_GAP - 1) };
}
