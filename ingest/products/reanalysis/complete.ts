/**
 * Derivations of the reanalysis product: relative humidity from specific
 * humidity when a source carries only that (20CRv3 `shum.2m`), then the nwp
 * ones (dew point from RH, ...). RH needs the surface pressure: from the MSL
 * pressure reduced to the model orography when both are there, else the MSL
 * pressure itself (said in the note: over high ground RH is then too high by
 * the pressure ratio, ~12 % at 1000 m).
 */
import { relativeHumidityFromSpecific, surfacePressureFromMsl } from '../../../science/index.js';
import { completeNwp } from '../nwp/complete.js';
import type { VariableStack } from '../product.js';

export function completeReanalysis(stack: VariableStack): string[] {
  const notes: string[] = [];
  const s = stack.series;
  const q = s.get('specific_humidity_2m');
  const t = s.get('temperature_2m');
  const msl = s.get('pressure_msl');
  if (q && t && msl && !s.has('relative_humidity_2m') && !s.has('dew_point_2m')) {
    const z = stack.statics.get('elevation');
    s.set('relative_humidity_2m', q.map((qk, k) => {
      const tk = t[k]!;
      const pk = msl[k]!;
      const out = new Float32Array(qk.length);
      for (let i = 0; i < qk.length; i++) {
        const ps = z && Number.isFinite(z[i]!) ? surfacePressureFromMsl(pk[i]!, z[i]!, tk[i]!) : pk[i]!;
        out[i] = Number.isNaN(qk[i]!) || Number.isNaN(tk[i]!) || Number.isNaN(ps) ? NaN : relativeHumidityFromSpecific(qk[i]!, tk[i]!, ps);
      }
      return out;
    }));
    notes.push(`relative_humidity_2m derived from specific_humidity_2m, temperature_2m and the ${z ? 'surface pressure (MSL pressure reduced to the model orography, WMO-No. 8)' : 'MSL pressure (no orography: surface pressure not known)'}`);
  }
  return [...notes, ...completeNwp(stack)];
}
