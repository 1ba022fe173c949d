/**
 * Product `reanalysis`: a century of past weather, one store per UTC year
 * (time layout `periods`, `tiles/reanalysis/<year>/`). Below nwp in the
 * router's priority, so it answers only the times the forecast does not hold
 * (api/router/route.ts). Sources by period (docs/history.md): ERA5 0.25°
 * hourly from 1940, NOAA-CIRES-DOE 20CRv3 1° 3-hourly for 1920–1939. An
 * ingest splits its files' times by year and merges each year with what is
 * already published for it (./years.ts).
 */
import { IngestError } from '../../ingest-types.js';
import { completeReanalysis } from './complete.js';
import type { Product, VariableStack } from '../product.js';
import { reanalysisModel } from './source-model.js';
import { REANALYSIS_VARIABLES } from './variables.js';

export const reanalysisProduct: Product = {
  name: 'reanalysis',
  summary: 'reanalysis by UTC year (ERA5 0.25° from 1940, 20CRv3 1° 1920–1939): temperature, humidity, pressure, wind, gust, cloud, precipitation, radiation, orography',
  static: false,
  layout: 'periods',
  // A merged year's run is not a forecast run (ingest/products/reanalysis/years.ts).
  runOrder: 'none',
  feeds: ['base'],
  priority: 5,
  variables: REANALYSIS_VARIABLES,
  auxiliary: {},
  // RH from specific humidity (20CRv3), dew point from RH (or RH from dew point) when a source carries only one.
  complete: completeReanalysis,
  model: reanalysisModel,
  validate(stack: VariableStack, files: readonly string[]): void {
    if (stack.series.size === 0 || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product reanalysis needs at least one time-varying variable, found only ${[...stack.statics.keys()].join(', ') || 'nothing'}`);
    }
  },
};
