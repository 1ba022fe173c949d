/**
 * The per-cell computation of the stored indices (./catalogue.ts) over one
 * band of cells and every time step: plain loops over typed arrays calling
 * the science/ library once per cell. Runs in the calling thread or in a
 * worker (./worker.ts); both receive the same `BandJob` and return the same
 * arrays.
 *
 * Layout: a time-varying band array holds steps × cells values, step-major
 * (value of cell i at step k at k·cells + i).
 */
import { meanRadiantTemperature, solarParameters } from '../../science/index.js';
import type { IndexName } from './catalogue.js';
import { cosZenith, type CellCoords } from './sun.js';
import type { StepTiming } from './timeline.js';

/** Canonical time-varying inputs the kernel reads (what the catalogue's indices need). */
export const SERIES_INPUTS = ['temperature_2m', 'shortwave_radiation', 'direct_radiation', 'longwave_radiation'] as const;
export type SeriesInput = (typeof SERIES_INPUTS)[number];

/** One band of cells: everything the kernel needs, transferable to a worker. */
export interface BandJob {
  cells: number;
  steps: StepTiming[];
  coords: CellCoords;
  /** Present time-varying inputs, steps × cells each. */
  series: Partial<Record<SeriesInput, Float32Array>>;
  /** Indices to compute (their inputs are present: catalogue.ts computableIndices). */
  outputs: IndexName[];
}

/** Index name → steps × cells values. */
export type BandResult = Partial<Record<IndexName, Float32Array>>;

export function computeBand(job: BandJob): BandResult {
  const { cells: m, steps, coords, series: s } = job;
  const out: BandResult = {};
  for (const name of job.outputs) out[name] = new Float32Array(steps.length * m);
  const mrtOut = out.mean_radiant_temperature;
  if (!mrtOut) return out;
  const t = s.temperature_2m!;
  const sw = s.shortwave_radiation!;
  const lw = s.longwave_radiation!;
  const direct = s.direct_radiation;

  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    for (let i = 0; i < m; i++) {
      const at = k * m + i;
      const g = sw[at]!;
      // Radiation is the mean over the step ending at the valid time: the Sun at its middle (docs/science.md).
      const cz = cosZenith(step.atMid, coords.sinLat[i]!, coords.cosLat[i]!, coords.lonDeg[i]!);
      // Without the product's direct beam: direct = fdir·GHI (Liljegren et al. 2008, eq. 13).
      const dir = direct ? direct[at]! : solarParameters(Math.max(0, g), cz, step.atMid.distanceAu).fdir * g;
      mrtOut[at] = meanRadiantTemperature({ temperature: t[at]!, shortwaveRadiation: g, directRadiation: dir, longwaveRadiation: lw[at]!, cosZenith: cz });
    }
  }
  return out;
}
