import { describe, expect, it } from 'vitest';
import { meanRadiantTemperature, projectedAreaFactor, STEFAN_BOLTZMANN } from '../../science/index.js';

describe('meanRadiantTemperature (Di Napoli et al. 2020)', () => {
  it('equals air temperature in a black-body enclosure at air temperature (no Sun)', () => {
    const t = 18;
    const lw = STEFAN_BOLTZMANN * (t + 273.15) ** 4;
    const tmrt = meanRadiantTemperature({
      temperature: t,
      shortwaveRadiation: 0,
      directRadiation: 0,
      longwaveRadiation: lw,
      cosZenith: -0.3,
      surfaceEmissivity: 1,
    });
    expect(tmrt).toBeCloseTo(t, 9);
  });

  it('matches a hand computation for a sunny case', () => {
    // T 25 °C, GHI 800, direct horizontal 600, L↓ 380 W/m², cos z 0.8 (elevation 53.130°),
    // albedo 0.2, εs 0.97. By hand: DNI 750, D↓ 200, S↑ 160, L↑ = 0.97σ·298.15⁴ = 434.63,
    // fp = 0.308 cos(53.130·(0.998 − 53.130²/50000)) = 0.308 cos(50.024°) = 0.19788,
    // absorbed = 0.5(380 + 434.63) + (0.7/0.97)(0.5·360 + 0.19788·750) = 644.31 W/m²,
    // Tmrt = (644.31/σ)^¼ − 273.15 = 53.34 °C.
    const tmrt = meanRadiantTemperature({
      temperature: 25,
      shortwaveRadiation: 800,
      directRadiation: 600,
      longwaveRadiation: 380,
      cosZenith: 0.8,
    });
    expect(tmrt).toBeCloseTo(53.34, 1);
    expect(projectedAreaFactor(53.130102)).toBeCloseTo(0.19788, 4);
  });

  it('folds the beam into diffuse near the horizon and returns NaN for missing input', () => {
    const low = meanRadiantTemperature({ temperature: 10, shortwaveRadiation: 50, directRadiation: 40, longwaveRadiation: 300, cosZenith: 0.01 });
    expect(Number.isFinite(low)).toBe(true);
    expect(meanRadiantTemperature({ temperature: 10, shortwaveRadiation: NaN, directRadiation: 0, longwaveRadiation: 300, cosZenith: 0.5 })).toBeNaN();
  });

  it('counts the beam from cos z = 0.05 up and folds it into diffuse below', () => {
    // T 10 °C, GHI 50, direct horizontal 40, L↓ 300 W/m², albedo 0.2, εs 0.97. By hand:
    // L↑ = 0.97σ·283.15⁴ = 353.549, S↑ = 10.
    // cos z 0.01: beam folded, D↓ 50, I* 0: absorbed = 0.5(300 + 353.549) + (0.7/0.97)(0.5·60) = 348.424,
    //   Tmrt = (348.424/σ)^¼ − 273.15 = 6.8281 °C.
    // cos z 0.05 (γ = 2.86598°): I* = 40/0.05 = 800, D↓ 10, fp = 0.308 cos(2.86598·(0.998 − 2.86598²/50000)) = 0.307616,
    //   absorbed = 326.775 + (0.7/0.97)(0.5·20 + 0.307616·800) = 511.584, Tmrt = 35.0455 °C.
    const at = (cosZenith: number) =>
      meanRadiantTemperature({ temperature: 10, shortwaveRadiation: 50, directRadiation: 40, longwaveRadiation: 300, cosZenith });
    expect(at(0.01)).toBeCloseTo(6.8281, 3);
    expect(at(0.05)).toBeCloseTo(35.0455, 3);
  });

  it('returns NaN when any input is not finite', () => {
    const ok = { temperature: 10, shortwaveRadiation: 50, directRadiation: 40, longwaveRadiation: 300, cosZenith: 0.5 };
    expect(Number.isFinite(meanRadiantTemperature(ok))).toBe(true);
    // Each of these would otherwise come out finite or infinite, not NaN (a NaN beam below cos z 0.05 is dropped).
    for (const bad of [
      { temperature: Infinity },
      { shortwaveRadiation: Infinity },
      { directRadiation: NaN, cosZenith: 0.01 },
      { longwaveRadiation: Infinity },
      { cosZenith: Infinity },
      { surfaceTemperature: -Infinity },
    ]) {
      expect(meanRadiantTemperature({ ...ok, ...bad }), JSON.stringify(bad)).toBeNaN();
    }
  });
});
