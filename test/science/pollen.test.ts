import { describe, expect, it } from 'vitest';
import { overallPollenRisk, pollenClassifier, pollenLevelLabelIt, pollenRisk } from '../../science/index.js';

describe('pollenRisk (AIA classes)', () => {
  it('starts each class at its lower edge', () => {
    expect(pollenRisk('grass', 0.59).risk).toBe('absent');
    expect(pollenRisk('grass', 0.6).risk).toBe('low');
    expect(pollenRisk('grass', 9.99).risk).toBe('low');
    expect(pollenRisk('grass', 10).risk).toBe('medium');
    expect(pollenRisk('grass', 30).risk).toBe('high');
    expect(pollenRisk('ragweed', 0.1).risk).toBe('low');
    expect(pollenRisk('birch_pollen', 50)).toEqual({ risk: 'high', label: 'alta', family: 'Betulaceae' });
  });

  it('returns null risk for missing values and rejects unknown species', () => {
    expect(pollenRisk('olive', NaN).risk).toBeNull();
    expect(() => pollenRisk('cypress' as never, 3)).toThrow(/unknown species 'cypress'/);
  });

  it('classifies one species as pollenRisk does, its table looked up once', () => {
    // AIA lower edges (grains/m³): Betulaceae 0.6 / 16 / 50, Graminaceae 0.6 / 10 / 30, Oleaceae 0.6 / 5 / 25, Compositae 0.1 / 5 / 25.
    const edges = { alder: [0.6, 16, 50], birch: [0.6, 16, 50], grass: [0.6, 10, 30], olive: [0.6, 5, 25], mugwort: [0.1, 5, 25], ragweed: [0.1, 5, 25] } as const;
    for (const [s, [low, medium, high]] of Object.entries(edges)) {
      const classify = pollenClassifier(s as keyof typeof edges);
      const expected: [number, string | null][] = [[NaN, null], [-1, null], [0, 'absent'], [low - 0.01, 'absent'], [low, 'low'], [medium - 0.01, 'low'], [medium, 'medium'], [high - 0.01, 'medium'], [high, 'high'], [1e4, 'high']];
      for (const [g, risk] of expected) {
        expect(classify(g).risk, `${s} ${g}`).toBe(risk);
        expect(classify(g)).toBe(pollenRisk(s as keyof typeof edges, g));
      }
    }
    expect(() => pollenClassifier('cypress' as never)).toThrow(/unknown species 'cypress'/);
  });

  it('takes the highest level known, and names each level in Italian', () => {
    expect(overallPollenRisk([null, 'low', 'high', 'medium', null, 'absent'])).toBe('high');
    expect(overallPollenRisk(['absent', null, 'low'])).toBe('low');
    expect(overallPollenRisk([null, null])).toBeNull();
    expect(overallPollenRisk(new Set(['medium', 'absent'] as const))).toBe('medium');
    expect(['absent', 'low', 'medium', 'high'].map((l) => pollenLevelLabelIt(l as 'low'))).toEqual(['assente', 'bassa', 'media', 'alta']);
  });
});
