/**
 * Both sides of every edge of the published category tables, written out
 * here from the publications rather than imported from the code, so a
 * shifted edge in science/ fails a test:
 * - UTCI assessment scale: Błażejczyk et al. (2013), Geographia Polonica
 *   86(1), Table 1 (intervals in °C, upper bound inclusive as the code states);
 * - EEA European Air Quality Index, 2024 revision of the band thresholds
 *   (µg/m³; Good 0–5 PM2.5 … Extremely poor > 140);
 * - frost: the radiative-night rules of FAO Environment and Natural Resources
 *   Series 10 (Snyder & de Melo-Abreu 2005): ≤ 2 oktas (25 %) and wind < 2 m/s
 *   gives a clear calm night.
 */
import { describe, expect, it } from 'vitest';
import { europeanAqi, groundCoolingK, utciCategory } from '../../science/index.js';

const EPS = 1e-6;

describe('UTCI categories (Błażejczyk et al. 2013)', () => {
  // [lower edge °C, category above it]
  const TABLE: Array<[number, string]> = [
    [46, 'extreme_heat_stress'],
    [38, 'very_strong_heat_stress'],
    [32, 'strong_heat_stress'],
    [26, 'moderate_heat_stress'],
    [9, 'no_thermal_stress'],
    [0, 'slight_cold_stress'],
    [-13, 'moderate_cold_stress'],
    [-27, 'strong_cold_stress'],
    [-40, 'very_strong_cold_stress'],
  ];
  it('puts a value just above each edge in the warmer category and just below in the colder', () => {
    TABLE.forEach(([edge, above], k) => {
      const below = TABLE[k + 1]?.[1] ?? 'extreme_cold_stress';
      expect(utciCategory(edge + EPS), `${edge}+`).toBe(above);
      expect(utciCategory(edge - EPS), `${edge}-`).toBe(below);
    });
  });
});

describe('EAQI levels (EEA 2024 bands)', () => {
  const LEVELS = ['good', 'fair', 'moderate', 'poor', 'very_poor', 'extremely_poor'];
  const BANDS = {
    pm2_5: [5, 15, 50, 90, 140],
    pm10: [15, 45, 120, 195, 270],
    nitrogen_dioxide: [10, 25, 60, 100, 150],
    ozone: [60, 100, 120, 160, 180],
    sulphur_dioxide: [20, 40, 125, 190, 275],
  } as const;
  it('changes level exactly at each published threshold of each pollutant', () => {
    for (const [pollutant, edges] of Object.entries(BANDS)) {
      edges.forEach((edge, k) => {
        expect(europeanAqi({ [pollutant]: edge * (1 - 1e-4) }).label, `${pollutant} ${edge}-`).toBe(LEVELS[k]);
        expect(europeanAqi({ [pollutant]: edge * (1 + 1e-4) }).label, `${pollutant} ${edge}+`).toBe(LEVELS[k + 1]);
      });
    }
  });
});

describe('ground cooling by night type (FAO 2005)', () => {
  it('is 3 K only at cloud ≤ 25 % and wind < 2 m/s, 1.5 K up to 50 % and 4 m/s, else 0.5 K', () => {
    expect(groundCoolingK(25, 1.99)).toBe(3);
    expect(groundCoolingK(25.01, 1.99)).toBe(1.5);
    expect(groundCoolingK(25, 2)).toBe(1.5);
    expect(groundCoolingK(50, 3.99)).toBe(1.5);
    expect(groundCoolingK(50.01, 3.99)).toBe(0.5);
    expect(groundCoolingK(50, 4)).toBe(0.5);
  });
});
