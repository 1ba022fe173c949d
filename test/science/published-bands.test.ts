/**
 * The EAQI and pollen classes against their published tables, transcribed
 * here as the publishers print them (ranges in µg/m³ or grains/m³), not from
 * the code's edges:
 * - EEA European Air Quality Index, bands revised in 2024 (ETC HE Report
 *   2024/17; airindex.eea.europa.eu "About the index"): hourly concentrations.
 * - SNPA POLLnet / AIA concentration classes (daily means, grains/m³).
 */
import { describe, expect, it } from 'vitest';
import { EAQI_LEVELS, europeanAqi, overallPollenRisk, pollenLevelLabelIt, pollenRisk, type AqiPollutant, type PollenSpecies } from '../../science/index.js';

const EEA_2024: Record<AqiPollutant, string[]> = {
  pm2_5: ['0-5', '5-15', '15-50', '50-90', '90-140', '140-800'],
  pm10: ['0-15', '15-45', '45-120', '120-195', '195-270', '270-1200'],
  nitrogen_dioxide: ['0-10', '10-25', '25-60', '60-100', '100-150', '150-1000'],
  ozone: ['0-60', '60-100', '100-120', '120-160', '160-180', '180-800'],
  sulphur_dioxide: ['0-20', '20-40', '40-125', '125-190', '190-275', '275-1250'],
};
const EEA_LEVELS = ['Good', 'Fair', 'Moderate', 'Poor', 'Very poor', 'Extremely poor'];
const EEA_LEVELS_IT = ['Buona', 'Discreta', 'Moderata', 'Scadente', 'Molto scadente', 'Estremamente scadente'];

describe('EAQI: EEA 2024 band table', () => {
  for (const [pollutant, ranges] of Object.entries(EEA_2024) as [AqiPollutant, string[]][]) {
    it(`${pollutant}: a concentration inside each published range gets that range's level`, () => {
      ranges.forEach((r, k) => {
        const [lo, hi] = r.split('-').map(Number) as [number, number];
        for (const c of [lo + 0.01 * (hi - lo), (lo + hi) / 2, hi - 0.01 * (hi - lo)]) {
          const aqi = europeanAqi({ [pollutant]: c });
          expect(aqi.label, `${pollutant} ${c} µg/m³`).toBe(EAQI_LEVELS[k]!.id);
          expect(EAQI_LEVELS[k]!.en).toBe(EEA_LEVELS[k]);
          expect(aqi.labelIt!.toLowerCase()).toBe(EEA_LEVELS_IT[k]!.toLowerCase());
          expect(aqi.dominant).toBe(pollutant);
        }
      });
    });
  }

  it('the worst pollutant decides (EEA: the index is the poorest level of the pollutants)', () => {
    const aqi = europeanAqi({ pm2_5: 10, pm10: 20, nitrogen_dioxide: 70, ozone: 50, sulphur_dioxide: 5 });
    expect(aqi.label).toBe('poor');
    expect(aqi.dominant).toBe('nitrogen_dioxide');
  });

  it('stable identifiers', () => {
    expect(EAQI_LEVELS.map((l) => l.id)).toEqual(['good', 'fair', 'moderate', 'poor', 'very_poor', 'extremely_poor']);
  });
});

const POLLNET: Record<PollenSpecies, [string, string, string]> = {
  alder: ['0.6-15.9', '16-49.9', '50-'],
  birch: ['0.6-15.9', '16-49.9', '50-'],
  grass: ['0.6-9.9', '10-29.9', '30-'],
  olive: ['0.6-4.9', '5-24.9', '25-'],
  mugwort: ['0.1-4.9', '5-24.9', '25-'],
  ragweed: ['0.1-4.9', '5-24.9', '25-'],
};

describe('pollen: POLLnet / AIA concentration classes', () => {
  for (const [species, ranges] of Object.entries(POLLNET) as [PollenSpecies, string[]][]) {
    it(`${species}: every published range, at both printed ends, and 0 is absent`, () => {
      expect(pollenRisk(species, 0).risk).toBe('absent');
      ranges.forEach((r, k) => {
        const [lo, hi] = r.split('-').map((x) => (x === '' ? NaN : Number(x))) as [number, number];
        const want = (['low', 'medium', 'high'] as const)[k];
        expect(pollenRisk(species, lo).risk, `${species} ${lo}`).toBe(want);
        if (!Number.isNaN(hi)) expect(pollenRisk(species, hi).risk, `${species} ${hi}`).toBe(want);
        else expect(pollenRisk(species, 10 * lo).risk).toBe(want);
      });
    });
  }

  it('Italian class names and the overall risk: the highest known, unknown species ignored', () => {
    expect(['absent', 'low', 'medium', 'high'].map((l) => pollenLevelLabelIt(l as 'low'))).toEqual(['assente', 'bassa', 'media', 'alta']);
    expect(overallPollenRisk([null, 'low', 'high', 'medium', null])).toBe('high');
    expect(overallPollenRisk(['absent', null])).toBe('absent');
    expect(overallPollenRisk([null, null])).toBeNull();
  });
});
