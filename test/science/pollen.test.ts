import { describe, expect, it } from 'vitest';
import { pollenRisk } from '../../science/index.js';

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
});
