/**
 * `wbgt`: WBGT in the sun and in the shade (Liljegren et al. 2008, science/
 * wbgt) recomputed at the point from the altitude-corrected temperature, the
 * humidity kept by the correction, the station pressure at the point, the
 * 10 m wind and the interpolated shortwave radiation, with the Sun at the
 * middle of the radiation step (as the grid's wbgt_sun / wbgt_shade). The
 * risk level is that of the sun value: ISO 7243:2017 / NIOSH RAL for moderate
 * work (300 W), unacclimatised, in the classes of the Worklimate service.
 */
import { wbgtInto, wbgtRisk, wbgtRiskLabelIt } from '../../../science/index.js';
import { roundTo } from '../../weather/precision.js';
import { DEVELOPER_DECIMALS } from './decimals.js';
import { finite, pointPressureHpa, radiationMidpointMs, type DeveloperInput } from './inputs.js';
import type { WbgtBody } from './schema.js';

/** NWP wind height, m. */
const WIND_HEIGHT_M = 10;

/** WBGT in the sun and in the shade, °C (science/ wbgtInto). */
const WBGT = new Float64Array(2);

/** The wbgt field, or null when an input is missing or the model has no solution. */
export function wbgtField(inp: DeveloperInput): WbgtBody | null {
  const t = finite(inp.temperatureC);
  const rh = finite(inp.relativeHumidityPct);
  const wind = finite(inp.windSpeed10mMs);
  const sw = finite(inp.values.shortwave_radiation);
  const p = pointPressureHpa(inp);
  if (t === null || rh === null || wind === null || sw === null || p === null) return null;
  const w = WBGT;
  // The Sun at the step's middle, as the answer's other fields take it; positional, into a reused array: nothing allocated.
  wbgtInto(w, inp.sun.at(radiationMidpointMs(inp)), t, rh, p, wind, WIND_HEIGHT_M, sw);
  const sun = w[0]!;
  const shade = w[1]!;
  const risk = wbgtRisk(sun);
  if (risk === null || !Number.isFinite(shade)) return null;
  return {
    sun: roundTo(sun, DEVELOPER_DECIMALS.temperature),
    shade: roundTo(shade, DEVELOPER_DECIMALS.temperature),
    risk_level: risk,
    risk_level_it: wbgtRiskLabelIt(risk),
  };
}
