/**
 * `temperature_source`: one line naming where the temperature came from and
 * what was done to it. Stable structure (tools may parse it):
 *
 *   "<product> <resolution> bilinear, altitude-corrected <zg> m → <zp> m (<alt|dem>), lapse 6.5 K/km"
 *   "<product> <resolution> bilinear, not altitude-corrected (no grid elevation)"
 *   "<product> <resolution> bilinear, not altitude-corrected (no point elevation)"
 *
 * followed by ", sample data" when the product is the labelled demo dataset.
 * <resolution> is the grid's north–south spacing ("2.2 km", "100 m"); <zg> the
 * model orography and <zp> the point's elevation, whole metres; (alt) means
 * the caller's `alt`, (dem) the DEM product.
 */
import { STANDARD_LAPSE_K_PER_M, type AltitudeCorrection } from './altitude.js';

export interface SourceInfo {
  product: string;
  /** Human-readable grid spacing (geo/grid describeResolution). */
  resolution: string;
  correction: AltitudeCorrection;
  /** True for the demo dataset (manifest source.sample). */
  sample: boolean;
}

const LAPSE_K_PER_KM = (STANDARD_LAPSE_K_PER_M * 1000).toFixed(1);

export function temperatureSource(info: SourceInfo): string {
  const c = info.correction;
  const how = c.applied
    ? `altitude-corrected ${Math.round(c.gridElevationM)} m → ${Math.round(c.pointElevationM)} m (${c.source}), lapse ${LAPSE_K_PER_KM} K/km`
    : `not altitude-corrected (${c.reason === 'no_grid_elevation' ? 'no grid elevation' : 'no point elevation'})`;
  return `${info.product} ${info.resolution} bilinear, ${how}${info.sample ? ', sample data' : ''}`;
}
