/**
 * Product `uv`: the satellite term of `uv_index`. It stores the effective
 * cloud albedo of CM SAF's SARAH climate data records and their operational
 * continuation (CM SAF Product User Manual Meteosat Solar Surface Radiation
 * and effective Cloud Albedo, SARAH-3: NetCDF4/CF, variable `CAL`,
 * dimensionless with `units` "1" or "%", regular lat/lon 0.05°, 30-minute
 * instantaneous slots, time in seconds since 1983-01-01). The API turns it
 * into a cloud modification factor by the Heliosat relation
 * (science/uv.ts cloudModificationFromCloudAlbedo) wherever a `uv` version
 * covers the point and time; elsewhere the NWP factor is used, as before.
 *
 * No SARAH file is available offline: the tests write one in that layout
 * with netCDF4-python (docs/uv.md).
 */
import { IngestError } from '../../ingest-types.js';
import type { Product, VariableStack } from '../product.js';
import type { StoredVariableSpec } from '../spec.js';

export const UV_VARIABLES = {
  effective_cloud_albedo: {
    units: '1', aggregation: 'instant', precision: 0.001, interpolation: 'linear', mask: 'any', block: 'uv',
    longName: 'effective cloud albedo (CM SAF SARAH CAL)',
    names: ['CAL', 'cal', 'effective_cloud_albedo'],
    // SARAH's valid range (Heliosat allows slightly negative and above-1 values); fill values fall outside.
    validRange: [-0.5, 1.5],
  },
} as const satisfies Record<string, StoredVariableSpec>;

export const uvProduct: Product = {
  name: 'uv',
  summary: 'effective cloud albedo from CM SAF SARAH (satellite), the cloud term of uv_index where it covers the time',
  static: false,
  layout: 'forecast',
  runOrder: 'none',
  feeds: ['uv'],
  priority: 10,
  variables: UV_VARIABLES,
  auxiliary: {},
  complete: () => [],
  validate(stack: VariableStack, files: readonly string[]): void {
    if (!stack.series.has('effective_cloud_albedo') || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product uv found no effective cloud albedo (CAL) with a time axis`);
    }
  },
};
