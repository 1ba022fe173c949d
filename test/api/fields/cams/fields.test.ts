/** air_quality and pollen from interpolated values (api/fields/cams/fields.ts), expected values from the published tables. */
import { describe, expect, it } from 'vitest';
import { airQuality, pollen } from '../../../../api/fields/cams/fields.js';

describe('air_quality', () => {
  it('EEA 2024: PM2.5 32.5 µg/m³ (band 15–50, moderate, index 40 + 20·17.5/35 = 50) dominates NO₂ 12 (fair)', () => {
    const a = airQuality({ pm2_5: 32.5, nitrogen_dioxide: 12, pm10: null }, 'cams');
    expect(a.eaqi).toEqual({ value: 50, label: 'moderata', level: 'moderate' });
    expect(a.dominant_pollutant).toBe('pm2_5');
    expect(a.pm10).toBeNull();
    expect(a.ozone).toBeNull();
    expect(a.nitrogen_dioxide).toBe(12);
  });

  it('no pollutant carried: no index, never 0', () => {
    const a = airQuality({ grass_pollen: 3 }, 'cams');
    expect(a.eaqi).toBeNull();
    expect(a.dominant_pollutant).toBeNull();
  });
});

describe('pollen', () => {
  it('species not carried are null; the risk is the highest known (olive 30 ≥ 25: alta; grass 12: media)', () => {
    const p = pollen({ grass_pollen: 12, olive_pollen: 30 }, 'cams');
    expect(p.species.alder).toBeNull();
    expect(p.species.ragweed).toBeNull();
    expect(p.species.grass).toEqual({ value: 12, risk: 'medium', risk_it: 'media' });
    expect(p.species.olive).toEqual({ value: 30, risk: 'high', risk_it: 'alta' });
    expect(p.risk).toBe('high');
    expect(p.risk_it).toBe('alta');
  });

  it('a species carried at 0 is "absent", not null; nothing carried gives a null risk', () => {
    expect(pollen({ birch_pollen: 0 }, 'cams').species.birch).toEqual({ value: 0, risk: 'absent', risk_it: 'assente' });
    expect(pollen({}, 'cams').risk).toBeNull();
  });
});
