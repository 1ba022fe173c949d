/**
 * Volumetric soil water from ICON's W_SO (science/soil-water.ts): θ = W / (ρ_w Δz),
 * with ρ_w = 1000 kg/m³ (1 kg/m² of water is 1 mm). Values worked by hand
 * on ICON's TERRA layers (1, 2, 6, 18 cm thick; DWD database reference).
 */
import { describe, expect, it } from 'vitest';
import { volumetricSoilWaterM3M3 } from '../../science/soil-water.js';

describe('volumetricSoilWaterM3M3', () => {
  it('turns mm of water in a layer into m³/m³', () => {
    expect(volumetricSoilWaterM3M3(18, 0.06)).toBeCloseTo(0.3, 12); // 18 mm in 6 cm
    expect(volumetricSoilWaterM3M3(3, 0.01)).toBeCloseTo(0.3, 12); // 3 mm in the 1 cm top layer
    expect(volumetricSoilWaterM3M3(45, 0.18)).toBeCloseTo(0.25, 12);
    expect(volumetricSoilWaterM3M3(0, 0.02)).toBe(0);
  });

  it('is NaN for a layer of no or negative thickness, and for NaN input', () => {
    expect(volumetricSoilWaterM3M3(10, 0)).toBeNaN();
    expect(volumetricSoilWaterM3M3(10, -0.06)).toBeNaN();
    expect(volumetricSoilWaterM3M3(10, NaN)).toBeNaN();
    expect(volumetricSoilWaterM3M3(NaN, 0.06)).toBeNaN();
  });
});
