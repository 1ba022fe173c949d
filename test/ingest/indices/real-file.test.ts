/**
 * The precomputation on real files read through the real path (reader →
 * nwp product → stack): a temperature-only file yields no index; ERA5-Land
 * daily temperature over Italy (NaN over the sea) with night-time radiation
 * added gives the library's mean radiant temperature per cell, NaN at sea.
 */
import { expect, it } from 'vitest';
import { assembleStack, toWriterInput } from '../../../ingest/assemble.js';
import { meanRadiantTemperature } from '../../../science/index.js';
import { deriveIndices } from '../../../ingest/indices/derive-indices.js';
import { selectGrid } from '../../../ingest/mapping/grid-choice.js';
import { mapFields } from '../../../ingest/mapping/map-fields.js';
import { getProduct } from '../../../ingest/products/registry.js';
import { readFile } from '../../../ingest/readers.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

async function nwpInput(rel: string) {
  const file = dataFile(rel);
  const product = getProduct('nwp');
  const mapped = mapFields(product, (await readFile(file)).map((field) => ({ field, file })));
  const sel = selectGrid(mapped.fields);
  const stack = assembleStack(product, sel.grid, sel.fields);
  product.complete(stack);
  return toWriterInput(product, stack, { files: [rel] });
}

describeShared('deriveIndices on real files', () => {
  it('yields nothing from an ERA5 2 m temperature file', async () => {
    const input = await nwpInput('era5-t2m-europe/era5-single-level-scalar-time.grib');
    expect(Object.keys(input.variables)).toEqual(['temperature_2m']);
    expect(await deriveIndices(input, { workers: 0 })).toEqual({});
  });

  it('gives the library mean radiant temperature per cell on ERA5-Land Italy, NaN over the sea', async () => {
    const input = await nwpInput('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
    expect(Object.keys(input.variables)).toEqual(expect.arrayContaining(['temperature_2m']));
    const days = 20;
    input.times = input.times.slice(0, days);
    const n = input.grid.nx * input.grid.ny;
    for (const v of Object.values(input.variables)) v.values = v.values.slice(0, days);
    const uniform = (x: number) => ({ units: 'W m-2', precision: 0.1, values: input.times.map(() => new Float32Array(n).fill(x)) });
    // No shortwave: the Sun's position does not enter (ISO 7726 with only the longwave fluxes), so the
    // library's value at cos z = 0 is the reference for every cell and day.
    input.variables.shortwave_radiation = uniform(0);
    input.variables.longwave_radiation = uniform(300);

    const out = await deriveIndices(input, { workers: 0 });
    expect(Object.keys(out)).toEqual(['mean_radiant_temperature']);
    const t = input.variables.temperature_2m!.values;
    let sea = 0;
    let land = 0;
    for (let k = 0; k < days; k++) {
      for (let c = 0; c < n; c++) {
        const got = out.mean_radiant_temperature!.values[k]![c]!;
        if (Number.isNaN(t[k]![c]!)) {
          expect(got).toBeNaN();
          sea++;
          continue;
        }
        const want = meanRadiantTemperature({ temperature: t[k]![c]!, shortwaveRadiation: 0, directRadiation: 0, longwaveRadiation: 300, cosZenith: 0 });
        expect(Math.abs(got - want)).toBeLessThan(1e-3);
        land++;
      }
    }
    expect(sea).toBeGreaterThan(0);
    expect(land).toBeGreaterThan(sea);
  });
});
