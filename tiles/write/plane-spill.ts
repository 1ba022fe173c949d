/**
 * A variable's step planes appended to a file as raw float32 (little-endian,
 * step-major) and read back a time chunk at a time (./plane-source.ts): the
 * values the writer packs are the very float32 values appended. The range
 * for the packing is kept as planes arrive. The file lives in a temp
 * directory of the store's staging area, so a crashed ingest's spill is
 * removed with its other dead temp directories (tiles/ops/gc.ts).
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { finiteRange } from '../codecs/packing.js';
import type { PlaneSource } from './plane-source.js';

export class PlaneSpill implements PlaneSource {
  private fd: number;
  private steps = 0;
  private extent: { min: number; max: number } | null = null;

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

  /** Append planes after those already held. */
  append(planes: readonly Float32Array[]): void {
    if (planes.length === 0) return;
    this.extent = finiteRange(planes, this.extent);
    const buf = new Float32Array(planes.length * this.cells);
    planes.forEach((p, k) => {
      if (p.length !== this.cells) throw new RangeError(`${this.path}: a plane of ${p.length} values, the grid has ${this.cells}`);
      buf.set(p, k * this.cells);
    });
    writeFully(this.fd, new Uint8Array(buf.buffer), this.steps * this.cells * 4);
    this.steps += planes.length;
  }

  read(t0: number, n: number): Float32Array[] {
    const k = Math.max(0, Math.min(n, this.steps - t0));
    const buf = new Float32Array(k * this.cells);
    const bytes = new Uint8Array(buf.buffer);
    let done = 0;
    while (done < bytes.length) {
      const got = readSync(this.fd, bytes, done, bytes.length - done, t0 * this.cells * 4 + done);
      if (got === 0) throw new Error(`${this.path}: ends before step ${t0 + k}`);
      done += got;
    }
    return Array.from({ length: k }, (_, i) => buf.subarray(i * this.cells, (i + 1) * this.cells));
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

function writeFully(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}
