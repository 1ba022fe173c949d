import { describe, expect, it } from 'vitest';
import { dewPoint, frostRisk, frostRiskWithoutDewPointInto, type FrostRisk } from '../../science/index.js';

describe('frostRiskWithoutDewPointInto: frostRisk into a reused object, without the dew point', () => {
  it('writes what frostRisk returns, the dew point aside (NaN), into the same object every call', () => {
    const out = {} as FrostRisk;
    let n = 0;
    for (const temperatureC of [-6, -0.5, 0, 0.4, 1.9, 2.6, 8]) {
      for (const relativeHumidityPct of [undefined, 20, 65, 100]) {
        for (const [cloudCoverPct, windSpeed10m] of [[10, 1], [40, 3], [90, 6]] as const) {
          const input = { temperatureC, relativeHumidityPct, cloudCoverPct, windSpeed10m };
          const got = frostRiskWithoutDewPointInto(out, input);
          expect(got).toBe(out);
          const want = frostRisk(input);
          expect({ ...got, dewPoint: want.dewPoint }).toEqual(want);
          expect(got.dewPoint).toBeNaN();
          // frostRisk's own dew point is there to skip: Magnus of the same humidity.
          if (relativeHumidityPct !== undefined) expect(want.dewPoint).toBe(dewPoint(temperatureC, relativeHumidityPct));
          n++;
        }
      }
    }
    expect(n).toBe(7 * 4 * 3);
  });
});
