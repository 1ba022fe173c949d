/**
 * Stored NWP variables derived from others when the source does not carry
 * them directly. Each derivation runs only when its target is absent, and
 * reports itself as a note.
 */
import { dewPoint, relativeHumidity, STEFAN_BOLTZMANN } from '../../../science/index.js';
import type { VariableStack } from '../product.js';

/**
 * Broadband longwave emissivity of the surface used to recover downward
 * longwave from net longwave: ~0.98 for vegetated land and water (Wilber,
 * Kratz & Gupta 1999, NASA/TP-1999-209362, IGBP classes); the error on the
 * downward flux is (1 − ε)·σT⁴ ≈ 8 W/m² at 15 °C.
 */
export const SURFACE_EMISSIVITY = 0.98;

/** Below this amount over the step the snow fraction is set to 0 (no precipitation to split), mm. */
const MIN_PRECIP_FOR_FRACTION_MM = 0.01;

export function completeNwp(stack: VariableStack): string[] {
  const notes: string[] = [];
  const s = stack.series;

  if (!s.has('dew_point_2m') && s.has('relative_humidity_2m') && s.has('temperature_2m')) {
    // RH floored at 1 %: RH = 0 has no finite dew point (no vapour at all).
    s.set('dew_point_2m', combine(s.get('temperature_2m')!, s.get('relative_humidity_2m')!, (t, rh) => dewPoint(t, Math.max(rh, 1))));
    notes.push('dew_point_2m derived from temperature_2m and relative_humidity_2m (Magnus, Alduchov & Eskridge 1996)');
  } else if (!s.has('relative_humidity_2m') && s.has('dew_point_2m') && s.has('temperature_2m')) {
    s.set('relative_humidity_2m', combine(s.get('temperature_2m')!, s.get('dew_point_2m')!, (t, td) => Math.min(100, relativeHumidity(t, td))));
    notes.push('relative_humidity_2m derived from temperature_2m and dew_point_2m (Magnus, Alduchov & Eskridge 1996)');
  }

  if (!s.has('shortwave_radiation') && s.has('direct_radiation') && s.has('diffuse_radiation')) {
    s.set('shortwave_radiation', combine(s.get('direct_radiation')!, s.get('diffuse_radiation')!, (dir, dif) => dir + dif));
    notes.push('shortwave_radiation = direct + diffuse downward shortwave (ICON ASWDIR_S + ASWDIFD_S)');
  } else if (!s.has('shortwave_radiation') && s.has('net_shortwave_radiation') && s.has('surface_albedo')) {
    // Net = down × (1 − α) ⇒ down = net / (1 − α); α in %.
    s.set('shortwave_radiation', combine(s.get('net_shortwave_radiation')!, s.get('surface_albedo')!, (net, albPct) => {
      const a = albPct / 100;
      return a < 1 ? Math.max(0, net / (1 - a)) : NaN;
    }));
    notes.push('shortwave_radiation = net shortwave / (1 − albedo)');
  }

  const surfaceT = s.get('skin_temperature') ?? s.get('temperature_2m');
  if (!s.has('longwave_radiation') && s.has('net_longwave_radiation') && surfaceT) {
    // Net = ε(L↓ − σTs⁴) for a grey surface reflecting (1 − ε)L↓ ⇒ L↓ = net/ε + σTs⁴.
    s.set('longwave_radiation', combine(s.get('net_longwave_radiation')!, surfaceT, (net, tC) => net / SURFACE_EMISSIVITY + STEFAN_BOLTZMANN * (tC + 273.15) ** 4));
    notes.push(`longwave_radiation = net longwave / ε + σTs⁴ (ε = ${SURFACE_EMISSIVITY}, Ts = ${s.has('skin_temperature') ? 'skin temperature' : '2 m temperature'})`);
  }

  if (!s.has('snowfall_fraction') && s.has('snowfall_amount') && s.has('precipitation')) {
    s.set('snowfall_fraction', combine(s.get('snowfall_amount')!, s.get('precipitation')!, (snow, precip) => {
      if (!(precip >= MIN_PRECIP_FOR_FRACTION_MM)) return Number.isNaN(precip) ? NaN : 0;
      return Math.min(1, Math.max(0, snow / precip));
    }));
    notes.push('snowfall_fraction = snowfall water equivalent / precipitation over the step');
  }
  return notes;
}

/** Cell-wise f(a, b) over two aligned series. */
function combine(a: Float32Array[], b: Float32Array[], f: (x: number, y: number) => number): Float32Array[] {
  return a.map((ai, t) => {
    const bi = b[t]!;
    const out = new Float32Array(ai.length);
    for (let i = 0; i < ai.length; i++) {
      const x = ai[i]!;
      const y = bi[i]!;
      out[i] = Number.isNaN(x) || Number.isNaN(y) ? NaN : f(x, y);
    }
    return out;
  });
}
