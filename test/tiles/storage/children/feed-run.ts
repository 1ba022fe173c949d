/**
 * Child process of the deployment tests (../deployment.ts): writes the GRIB
 * files of run number `k` as the emulated MeteoHub serves them and prints
 * the run (JSON) on stdout. The writing (grib_filter, synchronous) takes
 * seconds; in the test's process it would stop the event loop that s3rver,
 * the emulator and the soak's load and clock run on (measured: 4-12 s at
 * load 11, every bucket request timing out meanwhile).
 *
 *   feed-run.ts <dir> <run ISO> <k> <steps, comma-separated> [<variables, comma-separated>]
 */
import { meteohubRun, type IconValues } from '../../../support/emulators/icon-content.js';
import { runValues } from '../run-values.js';

const [dir, runIso, k, steps, variables] = process.argv.slice(2);
const all = runValues(Number(k));
const values = variables ? (Object.fromEntries(variables.split(',').map((v) => [v, all[v as keyof IconValues]])) as IconValues) : all;
const run = meteohubRun(dir!, new Date(runIso!), steps!.split(',').map(Number), values);
process.stdout.write(JSON.stringify(run));
