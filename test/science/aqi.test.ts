import { describe, expect, it } from 'vitest';
import { EAQI_BANDS_2024, europeanAqi, europeanAqiLevel, europeanAqiSubIndex } from '../../science/index.js';

describe('europeanAqi (EEA 2024 bands, continuous sub-index)', () => {
  it('maps each band edge to a multiple of 20', () => {
    for (const [p, edges] of Object.entries(EAQI_BANDS_2024)) {
      edges.forEach((e, k) => expect(europeanAqiSubIndex(p as keyof typeof EAQI_BANDS_2024, e)).toBeCloseTo(20 * k, 9));
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
});
