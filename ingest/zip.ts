/**
 * Zipped inputs: the data stores deliver CAMS and ERA5 as a ZIP of NetCDF
 * files when asked for `netcdf_zip` (and sometimes unasked, for several
 * variables or steps). Each member is written out as a file of its own and
 * read like any other input; shared by `meteopunto ingest` and the ADS/CDS
 * source so that both take the same archive the same way.
 *
 * Members are read with yauzl (streaming, checks each member's size against
 * its header and its CRC-32, and refuses an archive whose member paths are
 * absolute or climb out with `../`). Only regular files are extracted, under
 * their base name; two members with the same base name are refused rather
 * than one overwriting the other. Each member lands under `<name>.part`
 * first, then renamed.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { ReadError } from './field.js';

/** Members larger than this are refused unless the caller sets its own limit. */
const DEFAULT_MAX_MEMBER_BYTES = 8 * 1024 ** 3;

/** True when the file starts with a ZIP local-file header (PK\x03\x04) or is an empty archive (PK\x05\x06). */
export async function isZip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    return bytesRead === 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
  } finally {
    await fh.close();
  }
}

/** A member's base name, or undefined for directories and names that are not a plain file name. */
function memberName(raw: string): string | undefined {
  if (raw.endsWith('/') || raw.endsWith('\\')) return undefined;
  const name = basename(raw.replace(/\\/g, '/'));
  if (name === '' || name === '.' || name === '..' || name.includes('\0')) return undefined;
  return name;
}

class Limit extends Transform {
  private n = 0;
  constructor(
    private readonly max: number,
    private readonly label: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.n += chunk.length;
    cb(this.n > this.max ? new ReadError(this.label, `member larger than the limit of ${this.max} bytes`) : null, chunk);
  }
}

/**
 * Extracts every regular member of `zipPath` into `destDir` (created) and
 * returns their paths in archive order. A broken archive, a duplicate member
 * name or a member over `maxMemberBytes` is a ReadError naming the archive.
 */
export async function unzipFile(zipPath: string, destDir: string, opts: { maxMemberBytes?: number } = {}): Promise<string[]> {
  const max = opts.maxMemberBytes ?? DEFAULT_MAX_MEMBER_BYTES;
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false });
  } catch (err) {
    throw new ReadError(zipPath, `not a readable ZIP archive (${(err as Error).message})`, { cause: err });
  }
  await mkdir(destDir, { recursive: true });
  const written: string[] = [];
  try {
    const entries = await new Promise<yauzl.Entry[]>((ok, fail) => {
      const all: yauzl.Entry[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        all.push(e);
        zip.readEntry();
      });
      zip.once('end', () => ok(all));
      zip.once('error', fail);
      zip.readEntry();
    });
    for (const entry of entries) {
      const name = memberName(entry.fileName);
      if (!name) continue;
      const label = `${zipPath} (${entry.fileName})`;
      if (written.some((w) => basename(w) === name)) throw new ReadError(zipPath, `two members are named ${name}`);
      if (entry.uncompressedSize > max) throw new ReadError(label, `member of ${entry.uncompressedSize} bytes, over the limit of ${max}`);
      const target = join(destDir, name);
      const part = `${target}.part`;
      try {
        await pipeline(await zip.openReadStreamPromise(entry), new Limit(max, label), createWriteStream(part));
      } catch (err) {
        await rm(part, { force: true });
        if (err instanceof ReadError) throw err;
        throw new ReadError(label, `cannot extract (${(err as Error).message})`, { cause: err });
      }
      await rename(part, target);
      written.push(target);
    }
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(zipPath, `not a readable ZIP archive (${(err as Error).message})`, { cause: err });
  } finally {
    zip.close();
  }
  if (written.length === 0) throw new ReadError(zipPath, 'ZIP archive with no file in it');
  return written;
}

/**
 * The inputs with every ZIP replaced by its members (extracted into a
 * temporary directory), for `meteopunto ingest`; `cleanup` removes that
 * directory.
 */
export async function expandZipInputs(files: readonly string[]): Promise<{ files: string[]; cleanup: () => Promise<void> }> {
  let tmp: string | undefined;
  const out: string[] = [];
  try {
    for (const [i, f] of files.entries()) {
      if (!(await isZip(f).catch(() => false))) {
        out.push(f);
        continue;
      }
      tmp ??= await mkdtemp(join(tmpdir(), 'meteopunto-unzip-'));
      out.push(...(await unzipFile(f, join(tmp, String(i)))));
    }
  } catch (err) {
    if (tmp) await rm(tmp, { recursive: true, force: true });
    throw err;
  }
  return { files: out, cleanup: async () => (tmp ? rm(tmp, { recursive: true, force: true }) : undefined) };
}
