/**
 * The derived-index library: pure functions, units in names or TSDoc, a
 * reference at every formula. docs/science.md documents each index.
 */
export * from './constants.js';
export * from './humidity.js';
export * from './weather-code.js';
export { solarPosition, solarGeometry, cosSolarZenith, isDaytime } from '../geo/solar.js';
export type { SolarPosition, SolarGeometry } from '../geo/solar.js';
export * from './utci.js';
export { UTCI_COEFFICIENTS, UTCI_EXPONENTS } from './utci-coefficients.js';
export * from './mean-radiant-temperature.js';
export * from './wbgt.js';
export * from './wbgt-risk.js';
export { LILJEGREN, globeTemperature, wetBulbTemperature } from './wbgt-physics.js';
export * from './uv.js';
export * from './aqi.js';
export * from './pollen.js';
export * from './et0.js';
export * from './et0-radiation.js';
export * from './sea-state.js';
export * from './frost.js';
export * from './pressure.js';
export * from './specific-humidity.js';
export * from './lapse-rate.js';
export * from './soil-water.js';
