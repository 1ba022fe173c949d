import { describe, expect, it } from 'vitest';
import { frostRisk, groundCoolingK, groundFrostWarning } from '../../science/index.js';

describe('frostRisk', () => {
  it('is high with air frost at the screen', () => {
    const r = frostRisk({ temperatureC: -0.5, relativeHumidityPct: 90, cloudCoverPct: 90, windSpeed10m: 5 });
    expect(r.risk).toBe('high');
    expect(r.airFrost).toBe(true);
    expect(r.label).toBe('alto');
  });

  it('is moderate on a clear calm night at +2 °C (ground ~3 K colder) with hoar frost in moist air', () => {
    const r = frostRisk({ temperatureC: 2, relativeHumidityPct: 95, cloudCoverPct: 10, windSpeed10m: 1 });
    expect(r.radiativeNight).toBe(true);
    expect(r.groundTemperature).toBe(-1);
    expect(r.risk).toBe('moderate');
    expect(r.hoarFrost).toBe(true);
    expect(r.blackFrost).toBe(false);
  });

  it('flags black frost in dry air', () => {
    const r = frostRisk({ temperatureC: 1, relativeHumidityPct: 40, cloudCoverPct: 0, windSpeed10m: 0.5 });
    expect(r.groundFrost).toBe(true);
    expect(r.hoarFrost).toBe(false);
    expect(r.blackFrost).toBe(true);
    expect(r.frostPoint).toBeLessThan(-8);
  });

  it('is low or none on cloudy windy nights, and uses a given ground temperature', () => {
    expect(frostRisk({ temperatureC: 2, relativeHumidityPct: 80, cloudCoverPct: 100, windSpeed10m: 6 }).risk).toBe('low');
    expect(frostRisk({ temperatureC: 6, relativeHumidityPct: 80, cloudCoverPct: 100, windSpeed10m: 6 }).risk).toBe('none');
    const g = frostRisk({ temperatureC: 3, dewPointC: 1, cloudCoverPct: 0, windSpeed10m: 0, groundTemperatureC: 0.5 });
    expect(g.groundEstimated).toBe(false);
    expect(g.risk).toBe('low');
    expect(g.dewPoint).toBe(1);
    expect(groundCoolingK(40, 3)).toBe(1.5);
    expect(frostRisk({ temperatureC: NaN, cloudCoverPct: 0, windSpeed10m: 0 }).risk).toBeNull();
  });
});

describe('groundFrostWarning (MeteoSwiss)', () => {
  it('warns only below 600 m between 15 March and 31 October', () => {
    expect(groundFrostWarning(-1, 300, 4, 10).level).toBe(2);
    expect(groundFrostWarning(-1, 800, 4, 10).level).toBe(1);
    expect(groundFrostWarning(-1, 300, 3, 14).level).toBe(1);
    expect(groundFrostWarning(-1, 300, 3, 15).level).toBe(2);
    expect(groundFrostWarning(-1, 300, 11, 1).level).toBe(1);
    expect(groundFrostWarning(-4.01, 300, 10, 31)).toEqual({ intensity: 'strong', level: 2 });
  });
});
