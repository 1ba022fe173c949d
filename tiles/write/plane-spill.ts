/**
 * A variable's step planes appended to a file as raw float32 (little-endian,
 * step-major) and read back a time chunk at a time (./plane-source.ts): the
 * values the writer packs are the very float32 values appended. The range
 * for the packing is kept as planes arrive. The file lives in a temp
 * directory of the store's staging area, so a crashed ingest's spill is
 * removed with its other dead temp directories (tiles/ops/gc.ts).
 */
import { closeSync, openSync, readSync, writevSync } from 'node:fs';
import { finiteRange } from '../codecs/packing.js';
import type { PlaneSource } from './plane-source.js';

export class PlaneSpill implements PlaneSource {
  private fd: number;
  private steps = 0;
  private extent: { min: number; max: number } | null = null;
  /** Reused by every read: a year's variable is read as 69 chunks of 2 MB, which fresh would each be garbage. */
  private buffer = new Float32Array(0);

  constructor(
    readonly path: string,
    /** Values per plane (nx · ny). */
    readonly cells: number,
  ) {
    this.fd = openSync(path, 'w+');
  }

  get length(): number {
    return this.steps;
  }

  range(): { min: number; max: number } | null {
    return this.extent;
  }

  /** Append planes after those already held (written from their own memory: no copy, no garbage). */
  append(planes: readonly Float32Array[]): void {
    if (planes.length === 0) return;
    for (const p of planes) if (p.length !== this.cells) throw new RangeError(`${this.path}: a plane of ${p.length} values, the grid has ${this.cells}`);
    this.extent = finiteRange(planes, this.extent);
    let position = this.steps * this.cells * 4;
    // writev takes at most IOV_MAX (1024) buffers per call.
    for (let k = 0; k < planes.length; k += 1024) {
      let views = planes.slice(k, k + 1024).map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
      let left = views.reduce((n, v) => n + v.byteLength, 0);
      while (left > 0) {
        const wrote = writevSync(this.fd, views, position);
        position += wrote;
        left -= wrote;
        views = dropBytes(views, wrote);
      }
    }
    this.steps += planes.length;
  }

  /** The planes share one buffer, overwritten by the next read: use them before reading again (the writer does). */
  read(t0: number, n: number): Float32Array[] {
    const k = Math.max(0, Math.min(n, this.steps - t0));
    if (this.buffer.length < k * this.cells) this.buffer = new Float32Array(k * this.cells);
    const bytes = new Uint8Array(this.buffer.buffer, 0, k * this.cells * 4);
    let done = 0;
    while (done < bytes.length) {
      const got = readSync(this.fd, bytes, done, bytes.length - done, t0 * this.cells * 4 + done);
      if (got === 0) throw new Error(`${this.path}: ends before step ${t0 + k}`);
      done += got;
    }
    return Array.from({ length: k }, (_, i) => this.buffer.subarray(i * this.cells, (i + 1) * this.cells));
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

/** The views after their first `n` bytes. */
function dropBytes(views: Uint8Array[], n: number): Uint8Array[] {
  let i = 0;
  while (i < views.length && n >= views[i]!.byteLength) n -= views[i++]!.byteLength;
  const rest = views.slice(i);
  if (rest.length > 0 && n > 0) rest[0] = rest[0]!.subarray(n);
  return rest;
}
