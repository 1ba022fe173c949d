/**
 * Product `sm100`: what its store holds. Every nwp variable of the version it
 * follows, on the 100 m grid (nwp's own table: same units, packing, rules),
 * with temperature downscaled and the fields that depend on it recomputed
 * (./downscale.ts); the 100 m cell elevation; and per time step the
 * temperature gradient that was used and its fit.
 */
import { NWP_VARIABLES } from '../nwp/variables.js';
import type { StoredVariableSpec } from '../spec.js';

export const SM100_OWN_VARIABLES = {
  temperature_gradient: {
    units: 'K/km', aggregation: 'instant', precision: 0.01, interpolation: 'linear', mask: 'any', block: 'base',
    longName: 'local dT/dz of 2 m temperature fitted on the model cells around San Marino (−6.5 where the fit was rejected)',
    names: [],
  },
  temperature_gradient_r2: {
    units: '1', aggregation: 'instant', precision: 0.001, interpolation: 'linear', mask: 'any', block: 'base',
    longName: 'coefficient of determination of the gradient fit (missing where the standard gradient was used)',
    names: [],
  },
} as const satisfies Record<string, StoredVariableSpec>;

export const SM100_VARIABLES: Readonly<Record<string, StoredVariableSpec>> = { ...NWP_VARIABLES, ...SM100_OWN_VARIABLES };
