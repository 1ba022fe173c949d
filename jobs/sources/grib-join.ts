/**
 * Joins GRIB files into one: a GRIB file is a sequence of self-delimiting
 * messages (WMO FM 92 GRIB, each message carries its own total length), so
 * the files one after the other are exactly the merged file, read by ecCodes
 * like any other. Written under `<dest>.part`, then committed (commit-file.ts).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { commitFile } from './commit-file.js';

async function startsWithGrib(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    return bytesRead === 4 && head.toString('latin1') === 'GRIB';
  } finally {
    await fh.close();
  }
}

/** True when every file is GRIB and they were joined into `dest`; false (nothing written) when one is not GRIB. */
export async function joinGribFiles(parts: readonly string[], dest: string): Promise<boolean> {
  for (const p of parts) if (!(await startsWithGrib(p))) return false;
  const tmp = `${dest}.part`;
  try {
    const out = createWriteStream(tmp);
    for (const p of parts) await pipeline(createReadStream(p), out, { end: false });
    await new Promise<void>((ok, fail) => out.end((err?: Error | null) => (err ? fail(err) : ok())));
    await commitFile(tmp, dest);
    return true;
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
