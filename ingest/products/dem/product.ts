/** Product `dem`: a static elevation grid (see dem/variables.ts). */
import type { SourceField } from '../../field.js';
import { IngestError } from '../../ingest-types.js';
import type { FallbackMatch, Product, VariableStack } from '../product.js';
import { DEM_VARIABLES } from './variables.js';

/** Names readers give a parameter their tables do not know (ecCodes: 'unknown'). */
const UNNAMED = /^(unknown|var\d+|param\d+.*|\d+(\.\d+)*|)$/i;

export const demProduct: Product = {
  name: 'dem',
  summary: 'digital elevation model (static elevation grid) for the altitude correction',
  static: true,
  layout: 'static',
  runOrder: 'none',
  feeds: ['elevation'],
  priority: 10,
  variables: DEM_VARIABLES,
  auxiliary: {},
  complete: () => [],
  validate(stack: VariableStack, files: readonly string[]): void {
    if (!stack.statics.has('elevation')) throw new IngestError(`${files.join(', ')}: product dem found no elevation field`);
  },
  /**
   * A file given as a DEM whose only field has no name the readers know
   * (ARPAE's nita1k_orog.grb: GRIB1 local table 200, parameter 8, which
   * mirrors WMO table 2 parameter 8 "geometric height") is taken as the
   * elevation, in metres. Several unnamed fields would be a guess: refused.
   */
  fallback(fields: readonly SourceField[]): FallbackMatch | null {
    if (fields.length !== 1) return null;
    const f = fields[0]!;
    if (!UNNAMED.test(f.name.trim())) return null;
    if (!['m', 'unknown', ''].includes(f.units.trim().toLowerCase())) return null;
    return { field: f, variable: 'elevation', note: `its only field ('${f.name || 'unnamed'}', units '${f.units}') has no known name; taken as elevation in metres because the file was given as a DEM` };
  },
};
