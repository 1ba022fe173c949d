/**
 * `frost`: frost risk at the point (science/ frostRisk, docs/science.md "Frost
 * method") from the altitude-corrected temperature, the relative humidity
 * kept by the correction (frost point), total cloud cover and 10 m wind
 * (ground cooling on clear, calm nights).
 */
import { frostRisk } from '../../../science/index.js';
import { roundOrNull, roundTo } from '../../weather/precision.js';
import { DEVELOPER_DECIMALS } from './decimals.js';
import { finite, type DeveloperInput } from './inputs.js';
import type { FrostBody } from './schema.js';

/** The frost field, or null without temperature, cloud cover or wind. */
export function frostField(inp: DeveloperInput): FrostBody | null {
  const t = finite(inp.temperatureC);
  const cloud = finite(inp.values.cloud_cover);
  const wind = finite(inp.windSpeed10mMs);
  if (t === null || cloud === null || wind === null) return null;
  const rh = finite(inp.relativeHumidityPct);
  // undefined, not a spread-in part, without humidity: one object shape (see ./et0.ts).
  const f = frostRisk({ temperatureC: t, cloudCoverPct: cloud, windSpeed10m: wind, relativeHumidityPct: rh ?? undefined });
  if (f.risk === null || f.label === null) return null;
  return {
    risk: f.risk,
    risk_it: f.label,
    frost_point: roundOrNull(f.frostPoint, DEVELOPER_DECIMALS.temperature),
    ground_temperature: roundTo(f.groundTemperature, DEVELOPER_DECIMALS.temperature),
    clear_calm: f.radiativeNight,
    air_frost: f.airFrost,
    ground_frost: f.groundFrost,
    deposit: f.hoarFrost ? 'hoar_frost' : f.blackFrost ? 'black_frost' : null,
  };
}
