/**
 * Product `uv-nrt`: the near-real-time satellite term of `uv_index`, the
 * clear-sky index k = GHI / GHI_clear from EUMETSAT LSA SAF's MSG total
 * downward surface shortwave flux (MDSSFTD, LSA-207: NetCDF4, `DSSF_TOT`
 * W m-2, every 15 min on a regular 0.05° lat/lon grid over the MSG disk,
 * published within about an hour). It feeds `uv` below `uv` (CM SAF SARAH,
 * about five days late), so the group answers from SARAH where it covers
 * the time and from LSA SAF for the recent days and now.
 *
 * k is computed per cell and slot (science/uv.ts clearSkyIndexFromShortwave,
 * Haurwitz clear sky with the Sun at the moment SEVIRI scanned the cell,
 * 10–11 min after the slot starts over Italy: geo/seviri-scan.ts) and
 * stored rather than the flux: the
 * newest slot's k is held for HOLD_MINUTES after it, on the 15-minute axis,
 * so that "now" (an hour or more past the newest published slot) is
 * answered by clear-sky index persistence. Each run keeps the earlier slots
 * of the versions before it for CARRY_HOURS (carry-over), until SARAH covers
 * them.
 */
import { cellLatLon } from '../../../geo/grid.js';
import { seviriScanOffsetS } from '../../../geo/seviri-scan.js';
import { clearSkyIndexFromShortwave, cosSolarZenith } from '../../../science/index.js';
import { IngestError } from '../../ingest-types.js';
import type { Product, VariableStack } from '../product.js';
import type { StoredVariableSpec, VariableSpec } from '../spec.js';

/** The MSG slot spacing. */
export const SLOT_MINUTES = 15;
/** How long the newest slot's k answers after it: a publication delay of about 80 min plus an hour between fetches, with margin. */
export const HOLD_MINUTES = 120;
/** SARAH's continuation arrives about five days behind: LSA SAF slots are kept that long. */
const CARRY_HOURS = 5 * 24;

export const UV_NRT_VARIABLES = {
  clear_sky_index: {
    units: '1', aggregation: 'instant', precision: 0.001, interpolation: 'linear', mask: 'any', block: 'uv',
    longName: 'clear-sky index GHI / GHI_clear (LSA SAF MSG DSSF, Haurwitz clear sky)',
    // Derived from the flux (complete below); a file never carries it.
    names: [],
    validRange: [0, 3],
    gateExempt: { checks: ['finite-fraction', 'collapse'], why: 'missing wherever the Sun is below 5°: a slot at night is missing everywhere' },
  },
} as const satisfies Record<string, StoredVariableSpec>;

export const UV_NRT_FLUX = {
  surface_shortwave_flux: {
    units: 'W/m² (instant)', aggregation: 'instant', precision: 0.1, interpolation: 'linear',
    longName: 'downward surface shortwave flux at the slot time (LSA SAF MSG DSSF)',
    names: ['DSSF_TOT', 'DSSF'],
    standardNames: ['surface_downwelling_shortwave_flux_in_air'],
    validRange: [0, 1500],
  },
} as const satisfies Record<string, VariableSpec>;

/** k per cell and slot from the flux, then the newest slot held; in place, notes. */
export function completeUvNrt(stack: VariableStack): string[] {
  const flux = stack.series.get('surface_shortwave_flux');
  if (!flux) return [];
  const { grid } = stack;
  const cells = grid.nx * grid.ny;
  const lat = new Float64Array(cells);
  const lon = new Float64Array(cells);
  const scanMs = new Float64Array(cells);
  for (let j = 0; j < grid.ny; j++) {
    for (let i = 0; i < grid.nx; i++) {
      const p = cellLatLon(grid, i, j);
      const c = j * grid.nx + i;
      lat[c] = p.lat;
      lon[c] = p.lon;
      scanMs[c] = seviriScanOffsetS(p.lat, p.lon) * 1000;
    }
  }
  const k = flux.map((ghi, t) => {
    const slot = stack.times[t]!.getTime();
    const out = new Float32Array(cells);
    for (let c = 0; c < cells; c++) out[c] = clearSkyIndexFromShortwave(ghi[c]!, cosSolarZenith(new Date(slot + scanMs[c]!), lat[c]!, lon[c]!));
    return out;
  });
  stack.series.set('clear_sky_index', k);
  const notes = ['clear_sky_index = DSSF_TOT / Haurwitz clear-sky GHI with the Sun when SEVIRI scanned each cell (missing with the Sun below 5°)'];
  const last = stack.times.at(-1);
  if (!last) return notes;
  const held = HOLD_MINUTES / SLOT_MINUTES;
  for (let h = 1; h <= held; h++) {
    stack.times.push(new Date(last.getTime() + h * SLOT_MINUTES * 60_000));
    for (const series of stack.series.values()) series.push(series.at(-1)!.slice());
  }
  notes.push(`clear_sky_index of the newest slot (${last.toISOString()}) held for ${HOLD_MINUTES} min after it (persistence, to answer now)`);
  return notes;
}

export const uvNrtProduct: Product = {
  name: 'uv-nrt',
  summary: 'clear-sky index from EUMETSAT LSA SAF MSG DSSF (satellite, 15 min, within about an hour), the cloud term of uv_index where SARAH does not cover the time',
  static: false,
  layout: 'forecast',
  // Satellite slots, not forecast runs: a version's run is its newest slot.
  runOrder: 'none',
  feeds: ['uv'],
  priority: 5,
  carryHours: CARRY_HOURS,
  variables: UV_NRT_VARIABLES,
  auxiliary: UV_NRT_FLUX,
  complete: completeUvNrt,
  model: () => 'EUMETSAT LSA SAF MSG MDSSFTD',
  validate(stack: VariableStack, files: readonly string[]): void {
    if (!stack.series.has('surface_shortwave_flux') || stack.times.length === 0) {
      throw new IngestError(`${files.join(', ')}: product uv-nrt found no downward surface shortwave flux (LSA SAF DSSF_TOT) with a time axis`);
    }
  },
};
