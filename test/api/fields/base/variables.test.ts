import { describe, expect, it } from 'vitest';
import { freeVariablePlan } from '../../../../api/fields/base/variables.js';

const vars = (...names: string[]) => ({ variables: Object.fromEntries(names.map((n) => [n, { units: '', dtype: 'int16' as const, interpolation: 'linear' as const, mask: 'any' as const, block: 'base' }])) });

describe('variables read per lookup', () => {
  it('reads the dew point (not RH) and the weather code, with the state only as a fallback', () => {
    const plan = freeVariablePlan(vars('temperature_2m', 'dew_point_2m', 'relative_humidity_2m', 'weather_code', 'cloud_cover', 'precipitation', 'snowfall_fraction', 'elevation'));
    expect(plan.primary).toContain('dew_point_2m');
    expect(plan.primary).not.toContain('relative_humidity_2m');
    expect(plan.primary).toContain('weather_code');
    expect(plan.primary).not.toContain('cloud_cover');
    expect(plan.conditionFallback).toEqual(['cloud_cover', 'precipitation', 'snowfall_fraction']);
  });

  it('reads RH without a dew point, and the state directly without a code', () => {
    const plan = freeVariablePlan(vars('temperature_2m', 'relative_humidity_2m', 'cloud_cover', 'precipitation'));
    expect(plan.primary).toEqual(['temperature_2m', 'elevation', 'pressure_msl', 'wind_u_10m', 'wind_v_10m', 'wind_gust_10m', 'relative_humidity_2m', 'cloud_cover', 'precipitation']);
    expect(plan.conditionFallback).toEqual([]);
  });
});
