/**
 * The frost rules of science/frost.ts on both sides of each edge, as its
 * sources state them: air frost at a screen temperature ≤ 0 °C (FAO, Snyder &
 * de Melo-Abreu 2005); a radiative night with cloud ≤ 25 % and wind < 2 m/s;
 * ground frost at ≤ 0 °C and low risk within 2 K above it; hoar frost with
 * the ground at or below the frost point; MeteoSwiss warnings below 600 m from
 * 15 March to 31 October. With only a dew point, RH comes from the Magnus
 * form of Alduchov & Eskridge (1996), written out here.
 */
import { describe, expect, it } from 'vitest';
import { frostRisk, groundFrostWarning } from '../../science/index.js';

/** RH, %, from T and Td by Magnus over water (Alduchov & Eskridge 1996: b = 17.625, c = 243.04 °C). */
const rhMagnus = (t: number, td: number) => 100 * Math.exp((17.625 * td) / (243.04 + td) - (17.625 * t) / (243.04 + t));

describe('frostRisk edges', () => {
  it('with a dew point only, takes the frost point of the RH that dew point gives', () => {
    for (const [t, td] of [[3, -4], [1, -0.5], [-2, -6]] as const) {
      const fromTd = frostRisk({ temperatureC: t, dewPointC: td, cloudCoverPct: 0, windSpeed10m: 0 });
      const fromRh = frostRisk({ temperatureC: t, relativeHumidityPct: rhMagnus(t, td), cloudCoverPct: 0, windSpeed10m: 0 });
      expect(fromTd.dewPoint).toBe(td);
      expect(fromTd.frostPoint).toBeCloseTo(fromRh.frostPoint, 6);
      expect(fromTd.frostPoint).toBeGreaterThan(td); // over ice the frost point lies above the dew point below 0 °C
    }
  });

  it('calls a night radiative with cloud ≤ 25 % and wind < 2 m/s only', () => {
    const night = (cloud: number, wind: number) => frostRisk({ temperatureC: 4, relativeHumidityPct: 80, cloudCoverPct: cloud, windSpeed10m: wind }).radiativeNight;
    expect(night(25, 1.9)).toBe(true);
    expect(night(25.1, 1.9)).toBe(false);
    expect(night(25, 2)).toBe(false);
    expect(night(80, 5)).toBe(false);
  });

  it('takes air frost, ground frost and low risk at their edges (0 °C, 0 °C, 2 °C)', () => {
    const at = (t: number, ground: number) => frostRisk({ temperatureC: t, relativeHumidityPct: 50, cloudCoverPct: 100, windSpeed10m: 6, groundTemperatureC: ground });
    expect(at(0, 1)).toMatchObject({ airFrost: true, risk: 'high' });
    expect(at(0.1, 1)).toMatchObject({ airFrost: false, risk: 'low' });
    expect(at(1, 0)).toMatchObject({ groundFrost: true, risk: 'moderate' });
    expect(at(1, 0.1)).toMatchObject({ groundFrost: false, risk: 'low' });
    expect(at(3, 2)).toMatchObject({ risk: 'low' });
    expect(at(3, 2.1)).toMatchObject({ risk: 'none' });
  });

  it('has hoar frost with the ground exactly at the frost point', () => {
    const base = { temperatureC: 2, relativeHumidityPct: 70, cloudCoverPct: 0, windSpeed10m: 0 };
    const tf = frostRisk(base).frostPoint;
    expect(tf).toBeLessThan(0);
    expect(frostRisk({ ...base, groundTemperatureC: tf })).toMatchObject({ hoarFrost: true, blackFrost: false });
    expect(frostRisk({ ...base, groundTemperatureC: tf + 0.01 })).toMatchObject({ hoarFrost: false, blackFrost: true });
  });

  it('estimates the ground when the given one is not a number, and gives no risk without a screen temperature', () => {
    const r = frostRisk({ temperatureC: 4, relativeHumidityPct: 80, cloudCoverPct: 100, windSpeed10m: 6, groundTemperatureC: NaN });
    expect(r).toMatchObject({ groundEstimated: true, groundTemperature: 3.5, risk: 'none' });
    expect(frostRisk({ temperatureC: NaN, cloudCoverPct: 0, windSpeed10m: 0, groundTemperatureC: 1 }).risk).toBeNull();
  });
});

describe('groundFrostWarning edges (MeteoSwiss)', () => {
  it('gives no warning in winter, nor at 600 m', () => {
    expect(groundFrostWarning(-1, 300, 2, 20).level).toBe(1);
    expect(groundFrostWarning(-1, 300, 1, 15).level).toBe(1);
    expect(groundFrostWarning(-1, 600, 6, 1).level).toBe(1);
    expect(groundFrostWarning(-1, 599, 6, 1).level).toBe(2);
  });
});
