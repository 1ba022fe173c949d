/**
 * Child process for the atomic-publish test: samples a product in a loop
 * until `<stopFile>` exists, printing every new (temperature, elevation) pair
 * it sees as a JSON line, then a final summary line.
 * Usage: node --import tsx reader-loop.ts <root> <product> <stopFile> <timeMs>
 */
import { existsSync } from 'node:fs';
import { TileStore } from '../../../../tiles/read/reader.js';

const [root, product, stopFile, timeArg] = process.argv.slice(2) as [string, string, string, string];
const store = new TileStore(root, { manifestCheckMs: 0 });
const points: [number, number][] = [[36.05, 7.05], [39.5, 12.3], [38.0, 10.2], [40.8, 7.3]];
const seen = new Set<string>();
const errors: string[] = [];
let n = 0;
while (!existsSync(stopFile)) {
  const [lat, lon] = points[n % points.length]!;
  try {
    const s = await store.sample(product, lat, lon, Number(timeArg));
    const key = `${s.values.temperature_2m}|${s.values.elevation}`;
    if (!seen.has(key)) {
      seen.add(key);
      console.log(JSON.stringify({ seen: key }));
    }
  } catch (err) {
    errors.push(String(err));
  }
  n++;
  // A warm sample() settles in microtasks only: yield so stdout (a pipe, written asynchronously) flushes.
  await new Promise((r) => setImmediate(r));
}
console.log(JSON.stringify({ done: true, samples: n, seen: [...seen], errors: errors.slice(0, 5), errorCount: errors.length }));
