/** Units of the CAMS product: concentrations in µg/m³ and pollen in grains/m³ (ingest/mapping/units.ts). */
import { describe, expect, it } from 'vitest';
import { unitRule } from '../../../ingest/mapping/units.js';

const apply = (units: string, canonical: string, x: number) => {
  const r = unitRule(units, canonical);
  if (!r || r.kind !== 'value') throw new Error(`no value rule for '${units}' → ${canonical}`);
  return x * r.scale + r.offset;
};

describe('concentration units', () => {
  it.each(['ug m**-3', 'µg/m3', 'μg m-3', 'ug/m3', 'µg m-3'])('%s is µg/m³ as is', (u) => {
    expect(apply(u, 'µg/m³', 12.5)).toBe(12.5);
  });

  it('kg m-3 and mg m-3 scale to µg/m³', () => {
    expect(apply('kg m**-3', 'µg/m³', 2e-8)).toBeCloseTo(20, 9);
    expect(apply('mg m-3', 'µg/m³', 0.25)).toBeCloseTo(250, 9);
  });

  it('a mass mixing ratio (kg/kg) becomes µg/m³ with the ISA sea-level density 1.2250 kg/m³ (ISO 2533:1975 table)', () => {
    // EAC4 surface ozone of 50 ppb by mass-ish: 4.0e-8 kg/kg → 4.0e-8 × 1.2250 kg/m³ = 4.9e-8 kg/m³ = 49.0 µg/m³.
    expect(apply('kg kg**-1', 'µg/m³', 4.0e-8)).toBeCloseTo(49.0, 2);
  });

  it('pollen counts are grains/m³; a mass unit is not accepted for them, nor a count for a mass', () => {
    expect(apply('grains/m3', 'grains/m³', 37)).toBe(37);
    expect(apply('m**-3', 'grains/m³', 37)).toBe(37);
    expect(unitRule('µg/m3', 'grains/m³')).toBeNull();
    expect(unitRule('grains/m3', 'µg/m³')).toBeNull();
  });
});
