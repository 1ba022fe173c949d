/**
 * Product `nwp`: numerical weather prediction output (ECMWF IFS, ERA5,
 * ICON/ICON-2I, COSMO-2I, ...). Any subset of the canonical NWP variables
 * is a valid input: a file with only 2 m temperature makes a store with only
 * temperature_2m. The model orography, when given, is stored as `elevation`.
 */
import { IngestError } from '../../ingest-types.js';
import type { Product, VariableStack } from '../product.js';
import { completeNwp } from './complete.js';
import { NWP_AUXILIARY, NWP_VARIABLES } from './variables.js';

export const nwpProduct: Product = {
  name: 'nwp',
  summary: 'NWP forecast or analysis fields (temperature, humidity, pressure, wind, clouds, precipitation, radiation, weather code) plus the model orography',
  static: false,
  layout: 'forecast',
  runOrder: 'forecast',
  feeds: ['base', 'developer'],
  priority: 10,
  // weather.php's trend looks 3 hours back.
  carryHours: 3,
  derivesIndices: true,
  variables: NWP_VARIABLES,
  auxiliary: NWP_AUXILIARY,
  complete: completeNwp,
  validate(stack: VariableStack, files: readonly string[]): void {
    if (stack.series.size === 0 || stack.times.length === 0) {
      const stat = [...stack.statics.keys()].join(', ') || 'nothing';
      throw new IngestError(
        `${files.join(', ')}: product nwp needs at least one time-varying variable, found only ${stat}` +
          (stack.statics.has('elevation') ? " (an orography file alone is product 'dem', or give it together with the forecast files)" : ''),
      );
    }
  },
};
