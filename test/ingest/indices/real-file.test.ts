/**
 * The precomputation on real files read through the real path (reader →
 * nwp product → stack): a temperature-only file yields no index; ERA5-Land
 * daily temperature and humidity over Italy (NaN over the sea) with cloud and
 * wind added give frost classes equal to the library's, NaN at sea.
 */
import { expect, it } from 'vitest';
import { assembleStack, toWriterInput } from '../../../ingest/assemble.js';
import { frostRisk } from '../../../science/index.js';
import { deriveIndices, FROST_RISK_CODES } from '../../../ingest/indices/derive-indices.js';
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

  it('gives the library frost class per cell on ERA5-Land Italy, NaN over the sea', async () => {
    const input = await nwpInput('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
    expect(Object.keys(input.variables)).toEqual(expect.arrayContaining(['temperature_2m', 'relative_humidity_2m']));
    const days = 20;
    input.times = input.times.slice(0, days);
    const n = input.grid.nx * input.grid.ny;
    for (const v of Object.values(input.variables)) v.values = v.values.slice(0, days);
    const uniform = (x: number) => ({ units: '', precision: 0.1, values: input.times.map(() => new Float32Array(n).fill(x)) });
    input.variables.cloud_cover = uniform(10);
    input.variables.wind_u_10m = uniform(1);
    input.variables.wind_v_10m = uniform(0);

    const out = await deriveIndices(input, { workers: 0 });
    expect(Object.keys(out)).toEqual(['frost_risk']);
    const t = input.variables.temperature_2m!.values;
    let sea = 0;
    const classes = new Set<number>();
    for (let k = 0; k < days; k++) {
      for (let c = 0; c < n; c++) {
        const got = out.frost_risk!.values[k]![c]!;
        if (Number.isNaN(t[k]![c]!)) {
          expect(got).toBeNaN();
          sea++;
          continue;
        }
        const want = FROST_RISK_CODES.indexOf(frostRisk({ temperatureC: t[k]![c]!, cloudCoverPct: 10, windSpeed10m: 1 }).risk!);
        expect(got).toBe(want);
        classes.add(got);
      }
    }
    expect(sea).toBeGreaterThan(0);
    // November–December over Italy: from no risk in the south to air frost in the Alps.
    expect([...classes].sort()).toEqual([0, 1, 2, 3]);
  });
});
