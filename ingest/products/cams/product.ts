/**
 * Product `cams`: surface air quality (PM2.5, PM10, NO₂, O₃, SO₂) and pollen
 * (alder, birch, grass, mugwort, olive, ragweed) from CAMS European regional
 * forecasts/analyses or CAMS global (EAC4). Any subset of the variables is a
 * valid input (the Jaén pollen file carries grass and olive only); what a
 * source does not carry is simply absent from the store, and the API reports
 * it as null, never 0. Feeds the `cams` field group (air_quality, pollen).
 *
 * The European AQI is not stored: weather.php recomputes it from the
 * interpolated concentrations (docs/air-quality.md gives the reason and the
 * measured difference).
 */
import { IngestError } from '../../ingest-types.js';
import type { Product, VariableStack } from '../product.js';
import { bridgeTimeGaps } from './time-gaps.js';
import { CAMS_VARIABLES } from './variables.js';
import { recogniseEac4 } from './eac4.js';

export const camsProduct: Product = {
  name: 'cams',
  summary: 'CAMS air quality (PM2.5, PM10, NO2, O3, SO2, µg/m³) and pollen (6 species, grains/m³), European regional or global',
  static: false,
  layout: 'forecast',
  runOrder: 'forecast',
  notARun: recogniseEac4,
  feeds: ['cams'],
  priority: 10,
  variables: CAMS_VARIABLES,
  auxiliary: {},
  complete: (stack) => bridgeTimeGaps(stack),
  validate(stack: VariableStack, files: readonly string[]): void {
    if (stack.series.size === 0 || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product cams found no pollutant or pollen concentration with a time axis`);
    }
  },
};
