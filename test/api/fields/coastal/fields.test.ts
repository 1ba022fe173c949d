/**
 * api/fields/coastal/fields.ts: the `coastal` object from interpolated
 * values, by hand: decimals, direction wrap, what a source lacks, no sea.
 */
import { describe, expect, it } from 'vitest';
import { coastal } from '../../../../api/fields/coastal/fields.js';

describe('coastal', () => {
  it('rounds each field to its decimals and takes the sea state from the unrounded height', () => {
    const c = coastal({ sea_surface_temperature: 26.1973, wave_height: 0.4996, wave_direction: 305.4, wave_period: 3.7449, wave_peak_period: 4.651 }, 0, 'marine');
    // 0.4996 m rounds to 0.50 but is code 2 (≤ 0.5 m); 0.5004 would be code 3.
    expect(c).toEqual({
      sea_surface_temperature: 26.2, wave_height: 0.5, wave_direction: 305, wave_period: 3.7, wave_peak_period: 4.7,
      sea_state: { code: 2, label: 'poco mosso' }, distance_km: 0, source: 'marine',
    });
    expect(coastal({ wave_height: 0.5004 }, 0, 'm')!.sea_state).toEqual({ code: 3, label: 'mosso' });
  });

  it('reports a direction of 359.6° as 0 (from north), and the distance to one decimal', () => {
    expect(coastal({ wave_direction: 359.6 }, 7.077, 'm')).toMatchObject({ wave_direction: 0, distance_km: 7.1 });
  });

  it('leaves what the source lacks null, and has no sea state without a height', () => {
    expect(coastal({ sea_surface_temperature: 18.04, wave_height: null }, 2.5, 'm')).toEqual({
      sea_surface_temperature: 18, wave_height: null, wave_direction: null, wave_period: null, wave_peak_period: null,
      sea_state: null, distance_km: 2.5, source: 'm',
    });
  });

  it('treats a value that is not a number (NaN) as missing', () => {
    expect(coastal({ sea_surface_temperature: NaN, wave_height: NaN, wave_direction: NaN, wave_period: NaN, wave_peak_period: NaN }, 1, 'm')).toEqual({
      sea_surface_temperature: null, wave_height: null, wave_direction: null, wave_period: null, wave_peak_period: null,
      sea_state: null, distance_km: 1, source: 'm',
    });
  });

  it('is null without a sea cell within the search radius', () => {
    expect(coastal({ sea_surface_temperature: 20 }, null, 'm')).toBeNull();
    expect(coastal({}, undefined, 'm')).toBeNull();
  });
});
