/**
 * The static helpers of sea/land-masked products (tiles/masks.ts,
 * ingest/masks.ts): a product whose table has masked variables spreads these
 * into it, and maps its source's land-sea mask (if any) onto land_sea_mask.
 */
import type { StoredVariableSpec } from './spec.js';

export const MASK_VARIABLES = {
  land_sea_mask: {
    // ERA5 `lsm` is a land fraction 0..1; ingest/mapping/map-fields keeps it as given, the reader tests ≥ 0.5.
    units: '1', aggregation: 'static', precision: 0.01, interpolation: 'nearest', mask: 'any', block: 'mask',
    longName: 'land-sea mask (1 land, 0 sea)', standardName: 'land_binary_mask',
    names: ['lsm', 'land_sea_mask', 'fr_land', 'landmask', 'sftlf'],
    paramIds: [172],
    standardNames: ['land_binary_mask', 'land_area_fraction'],
  },
  nearest_sea_cell: {
    units: '1', aggregation: 'static', precision: 1, interpolation: 'nearest', mask: 'any', block: 'mask',
    longName: 'flat index of the nearest sea cell within the search radius',
    names: [],
  },
  nearest_land_cell: {
    units: '1', aggregation: 'static', precision: 1, interpolation: 'nearest', mask: 'any', block: 'mask',
    longName: 'flat index of the nearest land cell within the search radius',
    names: [],
  },
} as const satisfies Record<string, StoredVariableSpec>;
