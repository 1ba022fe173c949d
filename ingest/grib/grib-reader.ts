/**
 * GRIB edition 1 and 2 reader. ecCodes decodes the packing (simple, complex
 * with spatial differencing, second order, CCSDS, JPEG2000, IEEE, whatever
 * the installed ecCodes supports) in a subprocess; this module turns each
 * message into a SourceField on a normalised grid (geo/grid.ts).
 */
import { open } from 'node:fs/promises';
import { ReadError, type Reader, type SourceField } from '../field.js';
import { decodeGribFile, type DecodedMessage } from './eccodes-bridge.js';
import { gribGrid } from './grid-def.js';
import { gribLevel, gribParameter } from './level.js';
import { normaliseScanning } from './scanning.js';
import { gribTimes } from './time-keys.js';

export { GribDecoderUnavailableError } from './eccodes-bridge.js';

const MAGIC = [0x47, 0x52, 0x49, 0x42]; // 'GRIB'

/** ecCodes' placeholder for a key its tables do not know. */
function known(s: string | null): string | undefined {
  return s === null || s === 'unknown' || s === '' ? undefined : s;
}

function countNaN(values: Float32Array): number {
  let n = 0;
  for (let k = 0; k < values.length; k++) if (values[k] !== values[k]) n++;
  return n;
}

/** One decoded message → SourceField; a plain Error carries the reason. */
export function messageToField(msg: DecodedMessage): SourceField {
  const { meta } = msg;
  const { grid, scanning } = gribGrid(meta);
  const expected = grid.nx * grid.ny;
  if (msg.values.length !== expected) {
    throw new Error(`${msg.values.length} decoded values for a ${grid.nx}×${grid.ny} grid`);
  }
  if (meta.bitmapPresent === 1 && meta.numberOfMissing !== null) {
    const nan = countNaN(msg.values);
    if (nan !== meta.numberOfMissing) throw new Error(`bitmap marks ${meta.numberOfMissing} points missing, decoded ${nan}`);
  }
  const times = gribTimes(meta);
  const field: SourceField = {
    name: known(meta.shortName) ?? 'unknown',
    units: known(meta.units) ?? 'unknown',
    ...times,
    grid,
    values: normaliseScanning(msg.values, grid.nx, grid.ny, scanning),
  };
  if (meta.paramId !== null && meta.paramId > 0) field.paramId = meta.paramId;
  const longName = known(meta.name);
  if (longName) field.longName = longName;
  const standardName = known(meta.cfName);
  if (standardName) field.standardName = standardName;
  const level = gribLevel(meta);
  if (level) field.level = level;
  const parameter = gribParameter(meta);
  if (parameter) field.gribParameter = meta.centre ? { code: parameter, centre: meta.centre } : { code: parameter };
  if (meta.uvRelativeToGrid === 1) field.vectorAxes = 'grid';
  else if (meta.uvRelativeToGrid === 0) field.vectorAxes = 'earth';
  return field;
}

async function assertReadable(path: string): Promise<void> {
  try {
    const fh = await open(path, 'r');
    await fh.close();
  } catch (err) {
    throw new ReadError(path, `cannot open file: ${(err as Error).message}`, { cause: err });
  }
}

export const gribReader: Reader = {
  format: 'grib',

  sniff(head: Uint8Array): boolean {
    return head.length >= 4 && MAGIC.every((b, k) => head[k] === b);
  },

  async read(path: string): Promise<SourceField[]> {
    await assertReadable(path);
    const messages = await decodeGribFile(path);
    if (messages.length === 0) throw new ReadError(path, 'no GRIB message found');
    return messages.map((msg, k) => {
      try {
        return messageToField(msg);
      } catch (err) {
        const what = `${msg.meta.shortName ?? '?'} (edition ${msg.meta.edition ?? '?'})`;
        throw new ReadError(path, `GRIB message ${k + 1} ${what}: ${(err as Error).message}`, { cause: err });
      }
    });
  },
};
