/**
 * Soil water of a model layer as a volumetric content.
 *
 * ICON's and COSMO's TERRA soil scheme reports the water of each layer as
 * a mass per area, W_SO in kg/m² (= mm of water; liquid and frozen), on
 * layers 1, 2, 6, 18, 54, 162, 486 and 1458 cm thick (tops 0, 1, 3, 9, 27,
 * 81, 243, 729 cm): Reinert et al., "DWD Database Reference for the
 * Global and Regional ICON and ICON-EPS Forecasting System" (DWD), the
 * soil variables W_SO and T_SO; Doms et al., "A Description of the
 * Nonhydrostatic Regional COSMO Model, Part II: Physical Parameterization"
 * (COSMO consortium), the multi-layer soil model TERRA-ML. ERA5 and the API
 * give volumetric soil water, m³ of water per m³ of soil.
 */

/** Density of liquid water used to turn a water mass into a volume, kg/m³ (the value the TERRA scheme uses, rho_w). */
export const WATER_DENSITY_KG_M3 = 1000;

/**
 * Volumetric water content of a soil layer from its water mass per area.
 *
 * θ = W / (ρ_w · Δz)
 *
 * @param waterKgM2 water of the layer, kg/m² (ICON W_SO), ≥ 0
 * @param layerThicknessM the layer's thickness Δz, m, > 0
 * @returns θ, m³/m³ (0 .. the soil's pore volume, below 0.6 for real soils); NaN for NaN input or Δz ≤ 0
 */
export function volumetricSoilWaterM3M3(waterKgM2: number, layerThicknessM: number): number {
  if (!(layerThicknessM > 0)) return NaN;
  return waterKgM2 / (WATER_DENSITY_KG_M3 * layerThicknessM);
}
