/**
 * The UTCI polynomial's domain, edges included (Bröde et al. 2012, Int. J.
 * Biometeorol. 56:481–494, and the UTCI_a002 program's ranges): Ta −50…+50 °C,
 * Tmrt − Ta −30…+70 K, 10 m wind up to 17 m/s (calm raised to 0.5 m/s),
 * vapour pressure 0…50 hPa, RH 0…100 %. On each edge an index comes back;
 * just outside, NaN.
 */
import { describe, expect, it } from 'vitest';
import { utci, utciFromVapourPressure } from '../../science/utci.js';

describe('UTCI domain edges', () => {
  it('answers on every edge of the domain', () => {
    for (const [ta, tmrt, va, e] of [
      [-50, -50, 3, 0.5],
      [50, 50, 3, 20],
      [20, -10, 3, 10], // Tmrt − Ta = −30
      [20, 90, 3, 10], // Tmrt − Ta = +70
      [20, 20, 17, 10],
      [20, 20, 0, 10], // calm: raised to 0.5 m/s
      [20, 20, 3, 0],
      [30, 30, 3, 50],
    ] as const) {
      expect(Number.isFinite(utciFromVapourPressure(ta, tmrt, va, e)), `${ta} ${tmrt} ${va} ${e}`).toBe(true);
    }
    expect(utciFromVapourPressure(20, 20, 0, 10)).toBe(utciFromVapourPressure(20, 20, 0.5, 10));
  });

  it('is NaN just outside it', () => {
    for (const [ta, tmrt, va, e] of [
      [-50.1, -50.1, 3, 0.5],
      [50.1, 50.1, 3, 20],
      [20, -10.1, 3, 10],
      [20, 90.1, 3, 10],
      [20, 20, 17.1, 10],
      [20, 20, -0.1, 10],
      [20, 20, 3, -0.1],
      [30, 30, 3, 50.1],
    ] as const) {
      expect(utciFromVapourPressure(ta, tmrt, va, e), `${ta} ${tmrt} ${va} ${e}`).toBeNaN();
    }
  });

  it('takes RH from 0 to 100 % and nothing beyond', () => {
    const at = (rh: number) => utci({ temperature: 20, meanRadiantTemperature: 25, windSpeed10m: 2, relativeHumidity: rh });
    expect(Number.isFinite(at(0))).toBe(true);
    expect(Number.isFinite(at(100))).toBe(true);
    expect(at(100.1)).toBeNaN();
    expect(at(-0.1)).toBeNaN();
  });
});
