/**
 * Product `marine`: sea surface temperature and waves from Copernicus Marine
 * Mediterranean products (SST L4 NetCDF, MEDSEA wave analysis and forecast
 * NetCDF) and ECMWF WAM GRIB (see marine/variables.ts). Every variable is
 * sea-masked: a point reads sea cells only, within SEARCH_RADIUS_KM of the
 * sea (ingest/masks.ts, tiles/masks.ts). Feeds the `coastal` field group.
 *
 * Any subset is a valid input (an SST file alone, a wave file alone); what a
 * source lacks is absent from the store and null in the response. A store
 * has one grid: SST and waves on different grids given together keep the
 * grid with more variables and the others are resampled onto it over their
 * sea cells (ingest/mapping/resample.ts); a daily SST is held over its day on an
 * hourly wave axis (./sst-hold.ts).
 */
import { IngestError } from '../../ingest-types.js';
import { MASK_VARIABLES } from '../mask-variables.js';
import type { Product, VariableStack } from '../product.js';
import { completeMarine } from './sst-hold.js';
import { MARINE_VARIABLES } from './variables.js';

/**
 * How far (great circle, km) a point may be from the nearest sea cell's
 * centre and still get marine values: twice the 0.05° SST cell (~4.5 km ×
 * 5.5 km at 45° N) and about one 1/12° wave cell, so a harbour or a beach
 * whose own cell is land still gets the sea off it, while a town a few
 * kilometres inland gets `coastal: null`.
 */
export const MARINE_SEARCH_RADIUS_KM = 10;

export const marineProduct: Product = {
  name: 'marine',
  summary: 'sea surface temperature (°C) and waves (height m, direction °, mean and peak period s), Copernicus Marine MED or ECMWF WAM; sea cells only',
  static: false,
  layout: 'forecast',
  // One version mixes sources of several reference times (a day's SST analysis, the wave and physics forecast runs): its run is the newest of them.
  runOrder: 'none',
  feeds: ['coastal'],
  priority: 10,
  searchRadiusKm: MARINE_SEARCH_RADIUS_KM,
  // SST L4 (0.05°) and wave models (1/24°, 1/12°, 0.25°) come on different grids.
  resampleOtherGrids: true,
  variables: { ...MARINE_VARIABLES, ...MASK_VARIABLES },
  auxiliary: {},
  complete: completeMarine,
  validate(stack: VariableStack, files: readonly string[]): void {
    const found = Object.keys(MARINE_VARIABLES).filter((n) => stack.series.has(n));
    if (found.length === 0 || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product marine found no sea surface temperature or wave field with a time axis`);
    }
  },
};
