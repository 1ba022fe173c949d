/**
 * `frost`: frost risk at the point (science/ frostRisk, docs/science.md "Frost
 * method") from the altitude-corrected temperature, the relative humidity
 * kept by the correction (frost point), total cloud cover and 10 m wind
 * (ground cooling on clear, calm nights).
 */
import { frostRiskWithoutDewPointInto, type FrostInput, type FrostRisk } from '../../../science/index.js';
import { roundOrNull, roundTo } from '../../weather/precision.js';
import { DEVELOPER_DECIMALS } from './decimals.js';
import { finite, type DeveloperInput } from './inputs.js';
import type { FrostBody } from './schema.js';

/** The field's one input and result objects (read synchronously; doubles start as NaN to stay unboxed). */
const INPUT: FrostInput = { temperatureC: NaN, cloudCoverPct: NaN, windSpeed10m: NaN, relativeHumidityPct: undefined };
const RESULT: FrostRisk = {
  risk: null, label: null, frostPoint: NaN, dewPoint: NaN, groundTemperature: NaN, groundEstimated: false,
  radiativeNight: false, airFrost: false, groundFrost: false, hoarFrost: false, blackFrost: false,
};

/** The frost field, or null without temperature, cloud cover or wind. */
export function frostField(inp: DeveloperInput): FrostBody | null {
  const t = finite(inp.temperatureC);
  const cloud = finite(inp.values.cloud_cover);
  const wind = finite(inp.windSpeed10mMs);
  if (t === null || cloud === null || wind === null) return null;
  const rh = finite(inp.relativeHumidityPct);
  // undefined without humidity, not a left-out part: one object shape (see ./et0.ts); input and result reused.
  const fi = INPUT;
  fi.temperatureC = t;
  fi.cloudCoverPct = cloud;
  fi.windSpeed10m = wind;
  fi.relativeHumidityPct = rh ?? undefined;
  const f = frostRiskWithoutDewPointInto(RESULT, fi);
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
