import { describe, expect, it } from 'vitest';
import { europeanAqi, europeanAqiLevel, europeanAqiSubIndex, europeanAqiSummary } from '../../science/index.js';

describe('europeanAqi (EEA 2024 bands, continuous sub-index)', () => {
  it('maps each band edge of the published table to a multiple of 20', () => {
    // EEA 2024 thresholds, µg/m³, written out from the publication (not the code's copy).
    const published = {
      pm2_5: [0, 5, 15, 50, 90, 140],
      pm10: [0, 15, 45, 120, 195, 270],
      nitrogen_dioxide: [0, 10, 25, 60, 100, 150],
      ozone: [0, 60, 100, 120, 160, 180],
      sulphur_dioxide: [0, 20, 40, 125, 190, 275],
    } as const;
    for (const [p, edges] of Object.entries(published)) {
      edges.forEach((e, k) => expect(europeanAqiSubIndex(p as keyof typeof published, e)).toBeCloseTo(20 * k, 9));
    }
  });

  it('extrapolates above the last edge with the last band’s slope', () => {
    // NO2 last band 100..150 (50 µg/m³ per 20 points): 200 → 100 + 20 = 120.
    expect(europeanAqiSubIndex('nitrogen_dioxide', 200)).toBeCloseTo(120, 9);
  });

  it('takes the worst pollutant and skips missing ones', () => {
    const r = europeanAqi({ pm2_5: 10, ozone: 130, nitrogen_dioxide: NaN });
    expect(r.dominant).toBe('ozone');
    expect(r.value).toBeCloseTo(65, 9); // O3 band 120..160 spans 60..80
    expect(r.label).toBe('poor');
    expect(r.labelIt).toBe('scadente');
    expect(Number.isNaN(r.subIndices.nitrogen_dioxide)).toBe(true);
    expect(europeanAqi({}).label).toBeNull();
  });

  it('puts an index equal to a threshold in the lower level', () => {
    expect(europeanAqiLevel(20)).toBe('good');
    expect(europeanAqiLevel(20.001)).toBe('fair');
    expect(europeanAqiLevel(100)).toBe('very_poor');
    expect(europeanAqiLevel(100.1)).toBe('extremely_poor');
  });

  it('summarises the five pollutants as europeanAqi does, without the sub-indices', () => {
    // O3 130 → 65 (band 120..160 spans 60..80), PM2.5 10 → 30 (5..15 spans 20..40): ozone, 'poor'.
    expect(europeanAqiSummary(10, undefined, NaN, 130, undefined)).toEqual({ value: europeanAqiSubIndex('ozone', 130), label: 'poor', labelIt: 'scadente', dominant: 'ozone' });
    // A tie keeps the first of the table's order: PM2.5 15 and PM10 45 both give 40.
    expect(europeanAqiSummary(15, 45, undefined, undefined, undefined).dominant).toBe('pm2_5');
    expect(europeanAqiSummary(undefined, undefined, undefined, undefined, undefined)).toEqual({ value: NaN, label: null, labelIt: null, dominant: null });
    expect(europeanAqiSummary(-1, NaN, undefined, undefined, 0)).toEqual({ value: 0, label: 'good', labelIt: 'buona', dominant: 'sulphur_dioxide' });
    // Seeded random concentrations (some missing, NaN or negative): the same as the general function.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const c = () => { const r = rnd(); return r < 0.1 ? undefined : r < 0.15 ? NaN : r < 0.2 ? -2 : rnd() * 400; };
    for (let k = 0; k < 2000; k++) {
      const [pm2_5, pm10, nitrogen_dioxide, ozone, sulphur_dioxide] = [c(), c(), c(), c(), c()];
      const { subIndices: _, ...general } = europeanAqi({ pm2_5, pm10, nitrogen_dioxide, ozone, sulphur_dioxide });
      expect(europeanAqiSummary(pm2_5, pm10, nitrogen_dioxide, ozone, sulphur_dioxide)).toEqual(general);
    }
  });
});
