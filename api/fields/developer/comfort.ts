/**
 * `comfort`: UTCI (Bröde et al. 2012) at the point, consistent with the
 * altitude-corrected temperature.
 *
 * The grid's mean radiant temperature (precomputed, ingest/indices) belongs
 * to the grid temperature: of its terms only the ground's longwave emission
 * L↑ = εs σ T⁴ depends on the air temperature (science/
 * meanRadiantTemperature: Tmrt⁴ = (1/σ)[fa(L↓ + L↑) + …]). So the point's
 * Tmrt follows exactly by replacing that term:
 *
 *   Tmrt_p⁴ = Tmrt_g⁴ + fa εs (T_p⁴ − T_g⁴)      (kelvin)
 *
 * with the library's constants (science/ MRT_CONSTANTS.fa, MRT_GROUND.emissivity:
 * its Tmrt with every flux zero is (fa εs)^¼ T). UTCI then takes the
 * corrected temperature, that Tmrt, the 10 m wind and the relative humidity
 * (kept by the altitude correction).
 */
import { MRT_CONSTANTS, MRT_GROUND, utci, utciCategory, utciCategoryLabelIt } from '../../../science/index.js';
import { roundTo } from '../../weather/precision.js';
import { DEVELOPER_DECIMALS } from './decimals.js';
import { finite, type DeveloperInput } from './inputs.js';
import type { ComfortBody } from './schema.js';

const K = 273.15;

/** fa εs: the ground's longwave emission's share of σ Tmrt⁴ (the ground at the air temperature). */
const GROUND_SHARE = MRT_CONSTANTS.fa * MRT_GROUND.emissivity;

/**
 * The grid's Tmrt moved to the point's temperature (see module comment), °C.
 * In closed form: the library's Tmrt with no fluxes, twice per answer, cost
 * more than the rest of the field but UTCI.
 *
 * @param gridMrtC interpolated grid Tmrt, °C
 * @param gridTC interpolated grid temperature, °C
 * @param pointTC altitude-corrected temperature, °C
 */
export function meanRadiantTemperatureAtPoint(gridMrtC: number, gridTC: number, pointTC: number): number {
  const m2 = (gridMrtC + K) * (gridMrtC + K);
  const g2 = (gridTC + K) * (gridTC + K);
  const p2 = (pointTC + K) * (pointTC + K);
  return Math.sqrt(Math.sqrt(m2 * m2 + GROUND_SHARE * (p2 * p2 - g2 * g2))) - K;
}

/** The comfort field, or null when an input is missing or UTCI is undefined there (outside its validity). */
export function comfortField(inp: DeveloperInput): ComfortBody | null {
  const t = finite(inp.temperatureC);
  const gridT = finite(inp.values.temperature_2m);
  const gridMrt = finite(inp.values.mean_radiant_temperature);
  const rh = finite(inp.relativeHumidityPct);
  const wind = finite(inp.windSpeed10mMs);
  if (t === null || gridT === null || gridMrt === null || rh === null || wind === null) return null;
  const mrt = meanRadiantTemperatureAtPoint(gridMrt, gridT, t);
  const u = utci({ temperature: t, meanRadiantTemperature: mrt, windSpeed10m: wind, relativeHumidity: rh });
  const category = utciCategory(u);
  if (category === null || !Number.isFinite(mrt)) return null;
  return {
    value: roundTo(u, DEVELOPER_DECIMALS.temperature),
    category,
    category_it: utciCategoryLabelIt(category),
    mean_radiant_temperature: roundTo(mrt, DEVELOPER_DECIMALS.temperature),
  };
}
