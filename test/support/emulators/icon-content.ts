/**
 * Files for the MeteoHub and DWD emulators, written by ecCodes' grib_filter
 * from the real ICON-2I orography message (test/support/icon-grib.ts):
 *
 * - a MeteoHub ICON-2I run: one GRIB per variable holding every step, named
 *   as MeteoHub names them (`icon_2I_{yyyymmddHH}_{level}.grib`);
 * - DWD ICON-EU files: one message per step and variable, centre 78 (DWD,
 *   so ecCodes names parameters from its `edzw` tables), bzip2-compressed by
 *   the bzip2 tool, named and placed as opendata.dwd.de does. (On the ICON-2I
 *   test grid: the layout is what the emulator stands for, not ICON-EU's
 *   0.0625° grid.)
 *
 * Values are functions of the cell's model height and the step, so a test
 * computes its expected answers from grib_get_data's heights.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ICON, orographyHeights, runStamp, writeIconFile, type IconVariable } from '../icon-grib.js';
import type { MeteohubRun } from './meteohub.js';
import { iconEuPath } from './dwd-opendata.js';

export type IconValues = Partial<Record<keyof typeof ICON, (heightM: number, step: number) => number>>;

/** Time-invariant fields: one message at step 0. */
const INVARIANT = new Set(['HSURF', 'FR_LAND']);

/** A MeteoHub run of the variables in `values`, every step in each variable's one file. */
export function meteohubRun(dir: string, run: Date, steps: readonly number[], values: IconValues, heights = orographyHeights()): MeteohubRun {
  const folder = join(dir, `icon2i-${runStamp(run)}`);
  mkdirSync(folder, { recursive: true });
  const variables: MeteohubRun['variables'] = {};
  for (const [name, f] of Object.entries(values)) {
    if (!f) continue;
    const v = ICON[name]!;
    const file = `icon_2I_${runStamp(run)}_${v.fileLevel}.grib`;
    const path = writeIconFile(join(folder, `${name}-${file}`), v, run, INVARIANT.has(name) ? [0] : steps, f!, heights);
    variables[name] = [{ name: file, path }];
  }
  return { run, variables };
}

/** DWD ICON-EU files of the variables in `values`: emulator path → local .grib2.bz2. */
export function iconEuFiles(dir: string, run: Date, steps: readonly number[], values: IconValues, heights = orographyHeights()): Record<string, string> {
  const folder = join(dir, `icon-eu-${runStamp(run)}`);
  mkdirSync(folder, { recursive: true });
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(values)) {
    if (!f) continue;
    const v: IconVariable = { ...ICON[name]!, keys: { centre: 78, ...ICON[name]!.keys } };
    for (const step of INVARIANT.has(name) ? [undefined] : steps) {
      const path = iconEuPath(run, step, name);
      const grib = writeIconFile(join(folder, `${name}-${step ?? 'c'}.grib2`), v, run, [step ?? 0], f!, heights);
      const packed = `${grib}.bz2`;
      writeFileSync(packed, execFileSync('bzip2', ['-c', grib]));
      out[path] = packed;
    }
  }
  return out;
}
