import { describe, expect, it } from 'vitest';
import { normaliseUnits, unitRule } from '../../../ingest/mapping/units.js';

/** canonical value of `x` source units, for value rules. */
function conv(x: number, from: string, to: string): number {
  const r = unitRule(from, to);
  if (!r || r.kind !== 'value') throw new Error(`no value rule ${from} → ${to}`);
  return x * r.scale + r.offset;
}

describe('normaliseUnits', () => {
  it('drops ** and ^ exponents, lower-cases, collapses blanks', () => {
    expect(normaliseUnits('m**2 s**-2')).toBe('m2 s-2');
    expect(normaliseUnits('kg m^-2')).toBe('kg m-2');
    expect(normaliseUnits('  W   m**-2 ')).toBe('w m-2');
    expect(normaliseUnits('kg.m-2')).toBe('kg m-2');
  });
});

describe('unitRule', () => {
  it('K → °C, and °C as ERA5-Land NetCDF writes it stays', () => {
    expect(conv(293.15, 'K', '°C')).toBeCloseTo(20, 10);
    expect(conv(12.5, 'degC', '°C')).toBe(12.5);
    expect(conv(12.5, 'Celsius', '°C')).toBe(12.5);
  });
  it('Pa → hPa', () => {
    expect(conv(101325, 'Pa', 'hPa')).toBeCloseTo(1013.25, 10);
    expect(conv(1013.25, 'hPa', 'hPa')).toBe(1013.25);
  });
  it('geopotential m² s⁻² → m by standard gravity', () => {
    // 9806.65 m² s⁻² is exactly 1000 gpm.
    expect(conv(9806.65, 'm**2 s**-2', 'm')).toBeCloseTo(1000, 9);
    expect(conv(512, 'm', 'm')).toBe(512);
  });
  it('fractions 0..1 → %, % stays', () => {
    expect(conv(0.35, '(0 - 1)', '%')).toBeCloseTo(35, 5);
    expect(conv(0.35, '1', '%')).toBeCloseTo(35, 5);
    expect(conv(87, '%', '%')).toBe(87);
  });
  it('ozone kg m⁻² → DU (1 DU = 2.1415e-5 kg m⁻²)', () => {
    // 0.0065 kg m⁻² / 2.1415e-5 = 303.53 DU
    expect(conv(0.0065, 'kg m**-2', 'DU')).toBeCloseTo(303.53, 1);
  });
  it('precipitation: m of water is an amount ×1000, m day⁻¹ a rate', () => {
    expect(unitRule('m', 'mm')).toEqual({ kind: 'amount', scale: 1000 });
    expect(unitRule('kg m**-2', 'mm')).toEqual({ kind: 'amount', scale: 1 });
    const r = unitRule('m day-1', 'mm');
    expect(r?.kind).toBe('rate');
    // 0.004 m/day over one day = 4 mm
    expect(0.004 * (r as { scale: number }).scale * 86_400).toBeCloseTo(4, 9);
  });
  it('radiation: J m⁻² is an amount, W m⁻² a rate', () => {
    expect(unitRule('J m**-2', 'W/m²')).toEqual({ kind: 'amount', scale: 1 });
    expect(unitRule('W m**-2', 'W/m²')).toEqual({ kind: 'rate', scale: 1 });
  });
  it('wind: m s**-1, km/h, knots', () => {
    expect(conv(10, 'm s**-1', 'm/s')).toBe(10);
    expect(conv(36, 'km/h', 'm/s')).toBeCloseTo(10, 10);
    expect(conv(1, 'kt', 'm/s')).toBeCloseTo(0.514444, 6);
  });
  it('unknown or mismatched units give null, never a guess', () => {
    expect(unitRule('furlongs', '°C')).toBeNull();
    expect(unitRule('K', 'hPa')).toBeNull();
    expect(unitRule('Pa', '°C')).toBeNull();
  });
  it('weather codes take any units string', () => {
    expect(unitRule('code table 4.201', 'WMO 4677')).toEqual({ kind: 'value', scale: 1, offset: 0 });
  });
});
