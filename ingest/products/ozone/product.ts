/**
 * Product `ozone`: total column ozone from the CAMS global atmospheric
 * composition forecasts (ADS dataset
 * `cams-global-atmospheric-composition-forecasts`, variable
 * `total_column_ozone`: NetCDF `gtco3`, kg m-2, stored in DU,
 * ingest/mapping/units.ts). The clear-sky UV index needs it, and neither
 * ICON-2I nor ICON-EU open data carry it: the Developer builder reads this
 * feed where the base feed has no `total_ozone` (api/fields/developer/uv.ts).
 * Ozone varies over days, so the global model's ~0.4° grid and 3-hourly steps
 * are interpolated as they are.
 */
import { NWP_VARIABLES } from '../nwp/variables.js';
import { IngestError } from '../../ingest-types.js';
import type { Product, VariableStack } from '../product.js';
import type { StoredVariableSpec } from '../spec.js';

export const OZONE_VARIABLES = {
  total_ozone: { ...NWP_VARIABLES.total_ozone, block: 'ozone' },
} as const satisfies Record<string, StoredVariableSpec>;

export const ozoneProduct: Product = {
  name: 'ozone',
  summary: 'total column ozone (DU) from CAMS global forecasts, for the clear-sky UV index where the NWP has none',
  static: false,
  layout: 'forecast',
  runOrder: 'forecast',
  feeds: ['ozone'],
  priority: 10,
  variables: OZONE_VARIABLES,
  auxiliary: {},
  complete: () => [],
  validate(stack: VariableStack, files: readonly string[]): void {
    if (!stack.series.has('total_ozone') || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product ozone found no total column ozone (CAMS gtco3) with a time axis`);
    }
  },
};
