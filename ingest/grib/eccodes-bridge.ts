/**
 * Decodes every message of a GRIB file with ecCodes, driven by a Python
 * subprocess through ctypes (bridge-script.ts), and returns each message's keys and its
 * values in storage order. I/O only: grid and time interpretation live in
 * grid-def.ts and time-keys.ts.
 */
import { spawn } from 'node:child_process';
import { ReadError } from '../field.js';
import { BRIDGE_EXIT_ECCODES_MISSING, BRIDGE_SCRIPT, MISSING_SENTINEL } from './bridge-script.js';
import { processEnv } from '../../config/process-env.js';
import { setting, type Environment } from '../../config/environment.js';

/** The ecCodes keys the bridge reports; null when the message does not define the key. */
export interface GribMeta {
  edition: number | null;
  shortName: string | null;
  paramId: number | null;
  name: string | null;
  units: string | null;
  cfName: string | null;
  typeOfLevel: string | null;
  level: number | null;
  discipline: number | null;
  parameterCategory: number | null;
  parameterNumber: number | null;
  table2Version: number | null;
  indicatorOfParameter: number | null;
  centre: string | null;
  gridType: string | null;
  packingType: string | null;
  Ni: number | null;
  Nj: number | null;
  numberOfDataPoints: number | null;
  numberOfMissing: number | null;
  bitmapPresent: number | null;
  scanningMode: number | null;
  iScansNegatively: number | null;
  jScansPositively: number | null;
  jPointsAreConsecutive: number | null;
  alternativeRowScanning: number | null;
  latitudeOfFirstGridPointInDegrees: number | null;
  longitudeOfFirstGridPointInDegrees: number | null;
  latitudeOfLastGridPointInDegrees: number | null;
  longitudeOfLastGridPointInDegrees: number | null;
  iDirectionIncrementInDegrees: number | null;
  jDirectionIncrementInDegrees: number | null;
  latitudeOfSouthernPoleInDegrees: number | null;
  longitudeOfSouthernPoleInDegrees: number | null;
  /** GRIB1 key for the rotation angle. */
  angleOfRotationInDegrees: number | null;
  /** GRIB2 key for the rotation angle (degrees in ecCodes 2.28). */
  angleOfRotation: number | null;
  /** 1: vector components along the grid's axes, 0: towards east/north (resolutionAndComponentFlags bit 5). */
  uvRelativeToGrid: number | null;
  dataDate: number | null;
  dataTime: number | null;
  second: number | null;
  stepType: string | null;
  stepUnits: number | null;
  startStep: number | null;
  endStep: number | null;
  /** GRIB2 fixed surfaces (code table 4.5) and their values, scaledValue × 10^−scaleFactor in the table's unit. */
  typeOfFirstFixedSurface: number | null;
  scaleFactorOfFirstFixedSurface: number | null;
  scaledValueOfFirstFixedSurface: number | null;
  typeOfSecondFixedSurface: number | null;
  scaleFactorOfSecondFixedSurface: number | null;
  scaledValueOfSecondFixedSurface: number | null;
}

export interface DecodedMessage {
  meta: GribMeta;
  /** Values in the message's storage (scanning) order; NaN where missing. */
  values: Float32Array;
}

/** ecCodes (or Python to drive it) is not installed: an environment problem, not a bad file. */
export class GribDecoderUnavailableError extends Error {
  readonly code = 'GRIB_DECODER_UNAVAILABLE';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `GRIB decoding needs the ecCodes C library and python3 (${detail}). ` +
        `On Debian/Ubuntu install them with: apt-get install libeccodes-tools python3` +
        ` (METEOPUNTO_ECCODES_LIB may point at another libeccodes.so, METEOPUNTO_GRIB_PYTHON at another python3)`,
      options,
    );
    this.name = 'GribDecoderUnavailableError';
  }
}

/** The system interpreter by default: ctypes and json are all the bridge needs. */
export function gribPython(env: Environment = processEnv()): string {
  return setting(env, 'METEOPUNTO_GRIB_PYTHON') ?? '/usr/bin/python3';
}

/** Splits the bridge's stdout into frames: a JSON line, then `count` float64 values. */
class FrameParser {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private pendingHeader: { meta: GribMeta; count: number } | null = null;
  readonly messages: DecodedMessage[] = [];
  trailer: { end?: boolean; messages?: number; error?: string; message?: number } | null = null;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.drain();
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return head;
  }

  private drain(): void {
    for (;;) {
      if (this.pendingHeader) {
        const n = this.pendingHeader.count;
        if (this.buffered < n * 8) return;
        // Copy into an aligned buffer: the slice may start at any byte offset.
        const doubles = new Float64Array(n);
        new Uint8Array(doubles.buffer).set(this.take(n * 8));
        const values = new Float32Array(n);
        for (let k = 0; k < n; k++) {
          const v = doubles[k]!;
          values[k] = v === MISSING_SENTINEL ? NaN : v;
        }
        this.messages.push({ meta: this.pendingHeader.meta, values });
        this.pendingHeader = null;
        continue;
      }
      if (this.trailer) return;
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
      this.chunks = all.length > 0 ? [all] : [];
      const nl = all.indexOf(0x0a);
      if (nl < 0) return;
      const line = JSON.parse(this.take(nl + 1).toString('utf8')) as Record<string, unknown>;
      if ('meta' in line) this.pendingHeader = line as unknown as { meta: GribMeta; count: number };
      else this.trailer = line as FrameParser['trailer'];
    }
  }
}

/**
 * Decode every GRIB message in `path`. Throws ReadError when ecCodes cannot
 * decode the file (truncated, malformed, unsupported packing), and
 * GribDecoderUnavailableError when ecCodes itself is missing.
 */
export async function decodeGribFile(path: string, env: NodeJS.ProcessEnv = processEnv()): Promise<DecodedMessage[]> {
  const python = gribPython(env);
  const parser = new FrameParser();
  const stderr: Buffer[] = [];
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    const child = spawn(python, ['-c', BRIDGE_SCRIPT, path], { stdio: ['ignore', 'pipe', 'pipe'], env });
    child.stdout.on('data', (c: Buffer) => {
      try {
        parser.push(c);
      } catch (err) {
        child.kill();
        reject(new ReadError(path, `unreadable output from the ecCodes bridge: ${(err as Error).message}`, { cause: err }));
      }
    });
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    child.on('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new GribDecoderUnavailableError(`${python} not found`, { cause: err }) : err);
    });
    child.on('close', (exitCode) => resolvePromise(exitCode));
  });
  const errText = Buffer.concat(stderr).toString('utf8').trim();
  if (code === BRIDGE_EXIT_ECCODES_MISSING) throw new GribDecoderUnavailableError(errText || 'libeccodes not found');
  const t = parser.trailer;
  if (t?.error !== undefined) throw new ReadError(path, `ecCodes cannot decode GRIB message ${t.message ?? '?'}: ${t.error}`);
  if (code !== 0 || !t?.end) {
    throw new ReadError(path, `ecCodes bridge failed (exit ${code})${errText ? `: ${errText.split('\n').slice(-3).join(' ')}` : ''}`);
  }
  if (t.messages !== parser.messages.length) {
    throw new ReadError(path, `ecCodes bridge reported ${t.messages} messages but sent ${parser.messages.length}`);
  }
  return parser.messages;
}
