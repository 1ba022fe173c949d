/**
 * FAO-56 reference evapotranspiration where its branches switch, against
 * the equations computed by hand in Python (float64): a 2-hour period (Rs,
 * σ and Cn scale with the period's length t1), the Sun below 0.3 rad (Rs/Rso
 * replaced by 0.7), night (G = 0.5 Rn), polar night (Rso = 0: Rs/Rso taken
 * as 0.5), and measured radiation given beside sunshine hours.
 *
 * Hourly, Milan (45.46 N, 9.19 E, 120 m), dew point for ea, wind at 10 m,
 * FAO-56 (Cd 0.34); Ra and β at the midpoint as in test/science/et0-period:
 *   e°(T) = 0.6108 exp(17.27 T/(T + 237.3)); Δ = 4098 e°/(T + 237.3)²   (eqs. 11, 13)
 *   P = 101.3 ((293 − 0.0065 z)/293)^5.26; γ = 0.665e-3 P             (eqs. 7, 8)
 *   u2 = u10 · 4.87/ln(67.8·10 − 5.42)                                 (eq. 47)
 *   Rs = W · 0.0036 t1; Rso = (0.75 + 2e-5 z) Ra                        (eq. 37)
 *   fcd = 1.35 clip(Rs/Rso, 0.3, 1) − 0.35, Rs/Rso = 0.7 when β < 0.3   (ASCE-EWRI 2005 eqs. 18, 62)
 *   Rn = 0.77 Rs − 2.042e-10 t1 (T + 273.16)⁴ (0.34 − 0.14 √ea) fcd     (eqs. 38, 39)
 *   G = 0.1 Rn if Rn > 0 else 0.5 Rn                                    (eqs. 45, 46)
 *   ET0 = [0.408 Δ (Rn − G) + γ (37 t1/(T + 273)) u2 (e° − ea)] / [Δ + γ (1 + 0.34 u2)]  (eq. 53)
 */
import { describe, expect, it } from 'vitest';
import { et0DailyDetail, et0HourlyDetail } from '../../science/et0.js';

const MILAN = { lat: 45.46, lon: 9.19, elevationM: 120 };

describe('FAO-56 ET0 where its branches switch', () => {
  it('scales Rs, σ and Cn with a 2-hour period (09:00–11:00 UTC, 21 June)', () => {
    // T 25 °C, Td 15 °C, 700 W/m², 3 m/s: Ra 8.346589, Rs 5.04, Rso 6.279974, fcd 0.733444,
    // Rn 3.508721, G 0.350872 MJ/m², ET0 0.972009 mm.
    const r = et0HourlyDetail({
      ...MILAN, periodStart: new Date('2023-06-21T09:00:00Z'), periodHours: 2,
      temperatureC: 25, dewPointC: 15, shortwaveRadiation: 700, windSpeed: 3,
    });
    expect(r.ra).toBeCloseTo(8.346589, 5);
    expect(r.fcd).toBeCloseTo(0.733444, 5);
    expect(r.rn).toBeCloseTo(3.508721, 5);
    expect(r.g).toBeCloseTo(0.350872, 5);
    expect(r.et0).toBeCloseTo(0.972009, 5);
  });

  it('uses Rs/Rso = 0.7 with the Sun below 0.3 rad though Rso > 0 (04:00–05:00 UTC)', () => {
    // β 0.131584 rad; T 14, Td 10, 60 W/m², 2 m/s: Rs 0.216, Rso 0.471484 (their ratio 0.458 unused),
    // fcd 0.595, Rn 0.013594, ET0 0.025820 mm.
    const r = et0HourlyDetail({
      ...MILAN, periodStart: new Date('2023-06-21T04:00:00Z'),
      temperatureC: 14, dewPointC: 10, shortwaveRadiation: 60, windSpeed: 2,
    });
    expect(r.rso).toBeCloseTo(0.471484, 5);
    expect(r.fcd).toBeCloseTo(0.595, 9);
    expect(r.rn).toBeCloseTo(0.013594, 5);
    expect(r.et0).toBeCloseTo(0.02582, 5);
  });

  it('takes G = 0.5 Rn at night (22:00–23:00 UTC)', () => {
    // T 18, Td 12, no sunlight, 1 m/s: Ra 0, fcd 0.595, Rn −0.152105, G −0.076052, ET0 0.000712 mm.
    const r = et0HourlyDetail({
      ...MILAN, periodStart: new Date('2023-06-21T22:00:00Z'),
      temperatureC: 18, dewPointC: 12, shortwaveRadiation: 0, windSpeed: 1,
    });
    expect(r.fcd).toBeCloseTo(0.595, 9);
    expect(r.rn).toBeCloseTo(-0.152105, 5);
    expect(r.g).toBeCloseTo(-0.076052, 5);
    expect(r.et0).toBeCloseTo(0.000712, 5);
  });

  it('takes Rs/Rso as 0.5 in the polar night (80 N, 21 December: Ra = Rso = 0)', () => {
    // ea = e°(−28) = 0.060606 kPa; fcd = 1.35·0.5 − 0.35 = 0.325;
    // Rn = −4.903e-9 (253.16⁴ + 248.16⁴)/2 · (0.34 − 0.14 √ea) · 0.325 = −1.923111 MJ/m² (FAO-56 eq. 39).
    const r = et0DailyDetail({
      lat: 80, elevationM: 0, dayOfYear: 355, tMinC: -25, tMaxC: -20, dewPointC: -28,
      shortwaveRadiationMJ: 0, windSpeed: 2,
    });
    expect(r.rso).toBe(0);
    expect(r.rn).toBeCloseTo(-1.923111, 5);
  });

  it('takes measured radiation before sunshine hours when both are given', () => {
    const day = { lat: 45.46, elevationM: 120, dayOfYear: 172, tMinC: 16, tMaxC: 30, dewPointC: 14, windSpeed: 2 };
    const measured = et0DailyDetail({ ...day, shortwaveRadiationMJ: 20 });
    const both = et0DailyDetail({ ...day, shortwaveRadiationMJ: 20, sunshineHours: 2 });
    expect(both.rs).toBe(20);
    expect(both.et0).toBe(measured.et0);
  });
});
