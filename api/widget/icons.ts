/**
 * Inline SVG icons for weather.php's icon identifiers (science/weather-code.ts),
 * drawn from a few shapes (sun, moon, cloud, drops, flakes, bolt, fog) in a
 * 32 × 32 box and coloured by the theme's CSS variables (./style.ts). No
 * external file, no font: the box makes no request of its own.
 */

const SUN = '<circle class="sun" cx="16" cy="16" r="6"/><g class="ray"><path d="M16 3v4M16 25v4M3 16h4M25 16h4M6.8 6.8l2.8 2.8M22.4 22.4l2.8 2.8M6.8 25.2l2.8-2.8M22.4 9.6l2.8-2.8"/></g>';
const MOON = '<path class="moon" d="M20 5a11 11 0 1 0 7 18A9 9 0 0 1 20 5z"/>';
const SMALL_SUN = '<circle class="sun" cx="11" cy="11" r="5"/><g class="ray"><path d="M11 2v3M2 11h3M4.6 4.6l2 2M17.4 4.6l-2 2M4.6 17.4l2-2"/></g>';
const SMALL_MOON = '<path class="moon" d="M13 3a8 8 0 1 0 5 13A6.5 6.5 0 0 1 13 3z"/>';
const CLOUD = '<path class="cloud" d="M9 24h15a5 5 0 0 0 .6-10A7 7 0 0 0 11 13.5 5.3 5.3 0 0 0 9 24z"/>';
const CLOUD_HIGH = '<path class="cloud" d="M9 19h15a5 5 0 0 0 .6-10A7 7 0 0 0 11 8.5 5.3 5.3 0 0 0 9 19z"/>';
const DRIZZLE = '<g class="rain"><path d="M12 23v2M17 23v2M22 23v2"/></g>';
const RAIN = '<g class="rain"><path d="M11 22l-1.5 5M16 22l-1.5 5M21 22l-1.5 5"/></g>';
const HEAVY_RAIN = '<g class="rain"><path d="M10 22l-2 7M14.5 22l-2 7M19 22l-2 7M23.5 22l-2 7"/></g>';
/**
 * A snowflake: three strokes through (cx, cy), 60° apart, arms of `r`, the
 * six-armed star every weather pictogram set draws (a cross of two strokes
 * reads as a plus sign).
 */
export function flakePath(cx: number, cy: number, r: number): string {
  const dx = +(r * Math.cos(Math.PI / 6)).toFixed(2);
  const dy = +(r / 2).toFixed(2);
  const n = (x: number) => +x.toFixed(2);
  return `M${n(cx)} ${n(cy - r)}v${n(2 * r)}M${n(cx - dx)} ${n(cy - dy)}l${n(2 * dx)} ${n(2 * dy)}M${n(cx - dx)} ${n(cy + dy)}l${n(2 * dx)} ${n(-2 * dy)}`;
}
const flakes = (...centres: Array<[number, number]>) => `<g class="snow"><path d="${centres.map(([x, y]) => flakePath(x, y, 2.6)).join('')}"/></g>`;
const FREEZE = `<g class="rain"><path d="M11 22l-1.5 5M21 22l-1.5 5"/></g>${flakes([16, 25.5])}`;
const SNOW = flakes([11, 25], [21, 25]);
const HEAVY_SNOW = flakes([9, 24.5], [16, 27], [23, 24.5]);
const BOLT = '<path class="bolt" d="M17 18l-4 7h3.5l-2 6 6-8.5h-3.5l2-4.5z"/>';
const HAIL = '<g class="snow"><circle cx="10" cy="26" r="1.3"/><circle cx="24" cy="26" r="1.3"/></g>';
const FOG = '<g class="fog"><path d="M5 12h22M3 17h26M6 22h20M9 27h14"/></g>';
const UNKNOWN = '<circle class="cloud" cx="16" cy="16" r="11"/><path class="mark" d="M12.5 13a3.5 3.5 0 1 1 5 3.2c-1 .5-1.5 1.2-1.5 2.3M16 22v.5"/>';

const day = (s: string) => SMALL_SUN + s;
const night = (s: string) => SMALL_MOON + s;

/** Inner SVG of every icon identifier weather.php returns. */
export const ICON_SHAPES: Readonly<Record<string, string>> = {
  'clear-day': SUN,
  'clear-night': MOON,
  'mainly-clear-day': SUN + '<path class="cloud" d="M17 28h9a3.5 3.5 0 0 0 0-7 5 5 0 0 0-9 1.5 2.8 2.8 0 0 0 0 5.5z"/>',
  'mainly-clear-night': MOON + '<path class="cloud" d="M15 29h9a3.5 3.5 0 0 0 0-7 5 5 0 0 0-9 1.5 2.8 2.8 0 0 0 0 5.5z"/>',
  'partly-cloudy-day': day(CLOUD),
  'partly-cloudy-night': night(CLOUD),
  overcast: CLOUD,
  fog: FOG,
  drizzle: CLOUD_HIGH + DRIZZLE,
  'freezing-drizzle': CLOUD_HIGH + FREEZE,
  rain: CLOUD_HIGH + RAIN,
  'heavy-rain': CLOUD_HIGH + HEAVY_RAIN,
  'freezing-rain': CLOUD_HIGH + FREEZE,
  snow: CLOUD_HIGH + SNOW,
  'heavy-snow': CLOUD_HIGH + HEAVY_SNOW,
  'rain-showers-day': day(CLOUD_HIGH + RAIN),
  'rain-showers-night': night(CLOUD_HIGH + RAIN),
  'snow-showers-day': day(CLOUD_HIGH + SNOW),
  'snow-showers-night': night(CLOUD_HIGH + SNOW),
  thunderstorm: CLOUD_HIGH + BOLT,
  'thunderstorm-hail': CLOUD_HIGH + BOLT + HAIL,
  unknown: UNKNOWN,
};

/** The complete <svg> of an icon; `label` is its accessible name (already escaped). */
export function iconSvg(icon: string | null, label: string, size: number): string {
  const shape = (icon !== null ? ICON_SHAPES[icon] : undefined) ?? UNKNOWN;
  return `<svg class="icon" viewBox="0 0 32 32" width="${size}" height="${size}" role="img" aria-label="${label}">${shape}</svg>`;
}

/** An arrow pointing up, turned to `deg` (where the wind blows to). */
export function arrowSvg(deg: number): string {
  return `<svg class="arrow" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true"><path transform="rotate(${Math.round(deg)} 6 6)" d="M6 1l3.5 5H7v5H5V6H2.5z"/></svg>`;
}
