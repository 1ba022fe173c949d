/**
 * The UTCI polynomial (Bröde et al. 2012, UTCI_a002) at the 16 corners of its
 * domain, against a second transcription of its 210 coefficients.
 *
 * Ours were typed from RUBclim's copy of UTCI_a002.f90. The expected values
 * come from ECMWF thermofeel's `calculate_utci_polynomial` (commit ba72863),
 * which writes the program's sum out monomial by monomial with its own copy
 * of the coefficients, evaluated in Python (numpy float64):
 *
 *   for ta in (-50, 50): for d in (-30, 70): for va in (0.5, 17):
 *     for e in ((0, 0.06) if ta < 0 else (0, 50)):   # hPa, below es(Ta)
 *       calculate_utci_polynomial(ta, ta + d, va, e / 10)   # Pa in kPa
 *
 * Why the corners: Ta = ±50 °C, Tmrt − Ta = −30 or +70 K, va = 17 m/s and
 * e = 50 hPa raise the high powers, so that flipping the sign of any one of
 * the 210 coefficients moves the value at one corner or more by 0.06 K at
 * least (the smallest, ΔTmrt⁴ at +70 K) and by several kelvin for the
 * 1e-8 terms in va³–va⁴ with ΔTmrt² (−1.00361113e-8 va⁴ΔTmrt², 8.2 K;
 * −3.95079398e-8 va³ΔTmrt²Pa, 9.5 K). Reference cases near the middle of the
 * domain (test/science/reference-cases/) cannot see those terms. Both sides are
 * the same polynomial in double precision, so the tolerance is 1e-6 K.
 * e at −50 °C stays under saturation there (0.064 hPa, Hardy 1998).
 */
import { describe, expect, it } from 'vitest';
import { utciFromVapourPressure } from '../../science/utci.js';

// [Ta °C, Tmrt °C, va m/s, e hPa, UTCI °C from thermofeel]
const CORNERS = [
  [-50, -80, 0.5, 0, -52.790297772932924],
  [-50, -80, 0.5, 0.06, -52.170306929015375],
  [-50, -80, 17, 0, -102.71340367509349],
  [-50, -80, 17, 0.06, -101.09315661369234],
  [-50, 20, 0.5, 0, -36.250120251469106],
  [-50, 20, 0.5, 0.06, -35.74247239568423],
  [-50, 20, 17, 0, -89.66345059606586],
  [-50, 20, 17, 0.06, -89.00673431897268],
  [50, 20, 0.5, 0, 49.41365564145605],
  [50, 20, 0.5, 50, 53.7868030732765],
  [50, 20, 17, 0, 57.18150240902567],
  [50, 20, 17, 50, 57.46509120697839],
  [50, 120, 0.5, 0, 86.70040907435244],
  [50, 120, 0.5, 50, 69.74288005098768],
  [50, 120, 17, 0, 64.09116355920429],
  [50, 120, 17, 50, 70.8083284132432],
] as const;

describe('UTCI polynomial at the corners of its domain', () => {
  for (const [ta, tmrt, va, e, expected] of CORNERS) {
    it(`Ta ${ta} °C, Tmrt ${tmrt} °C, va ${va} m/s, e ${e} hPa → ${expected.toFixed(4)} °C`, () => {
      expect(Math.abs(utciFromVapourPressure(ta, tmrt, va, e) - expected)).toBeLessThan(1e-6);
    });
  }
});
