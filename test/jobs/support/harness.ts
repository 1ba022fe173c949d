/** Shared pieces of the jobs suites: temp data roots, unique queue prefixes, test configs, bounded waits, reference values. */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { vi } from 'vitest';
import { parseJobsConfig, type JobsConfig } from '../../../jobs/config.js';
import { readManifestSync } from '../../../tiles/manifest-file.js';
import { productDir } from '../../../config/paths.js';
import { dataFile } from '../../support/shared-data.js';

export const IFS_FILE = () => dataFile('ifs-hres-t2m-italy/alternate-scanning.grib');
export const ERA5_FILE = () => dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib');
/** IFS HRES run 2021-08-01 12Z, step +3 h (the file's GRIB header: dataDate, dataTime, step). */
export const IFS_RUN = new Date(Date.UTC(2021, 7, 1, 12));
export const IFS_VALID_MS = Date.UTC(2021, 7, 1, 15);
/** The path the test server publishes the IFS file under, as the URL template below fills it in. */
export const IFS_PATH = '/2021080112/ifs_003.grib';

export function tempRoot(tag: string): string {
  return mkdtempSync(join(tmpdir(), `mp-${tag}-`));
}

export function uniquePrefix(): string {
  return `mpt-${randomUUID().slice(0, 8)}`;
}

/** A jobs config for product nwp fetching `<base>/{yyyymmddHH}/ifs_{step:03}.grib`, with fast retries (in place and of the job) and timeouts. */
export function httpConfig(base: string, extra: { worker?: object; retry?: object; schedule?: object; source?: object } = {}): JobsConfig {
  return parseJobsConfig(
    {
      products: {
        nwp: {
          ...(extra.schedule ? { schedule: extra.schedule } : {}),
          run: { cycleHours: 12, availableAfterMinutes: 0 },
          model: 'IFS-HRES (test)',
          source: {
            kind: 'http', urls: [`${base}/{yyyymmddHH}/ifs_{step:03}.grib`], steps: '3', timeouts: { headersSeconds: 2, idleSeconds: 0.5, totalSeconds: 20 },
            maxWaitSeconds: 3, retryInPlace: { firstDelaySeconds: 0.05, maxDelaySeconds: 0.2 }, ...extra.source,
          },
        },
      },
      retry: { attempts: 3, backoffSeconds: 0.1, ...extra.retry },
      worker: { lockSeconds: 5, stalledCheckSeconds: 1, shutdownGraceSeconds: 5, ...extra.worker },
    },
    'test jobs config',
  );
}

/** Polls until the job reaches one of `states` (bounded; not a timing assertion). */
export async function waitForState(queue: Queue, id: string, states: string[], timeoutMs = 30_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let state = 'unknown';
  while (Date.now() < until) {
    state = await queue.getJobState(id);
    if (states.includes(state)) return state;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} still '${state}' after ${timeoutMs} ms (wanted ${states.join('/')})`);
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** 2 m temperature in K at a grid node, from ecCodes' own `grib_get -l` (nearest point, mode 1): an independent reference. */
export function gribValueK(file: string, lat: number, lon: number): number {
  return Number(execFileSync('grib_get', ['-l', `${lat},${lon},1`, file], { encoding: 'utf8' }).trim());
}

export function liveVersion(root: string, product = 'nwp'): string | undefined {
  return readManifestSync(productDir(root, product))?.version;
}

export function versionDirs(root: string, product = 'nwp'): string[] {
  return readdirSync(productDir(root, product)).filter((n) => n.endsWith('.zarr'));
}

/** Runs a CLI entry point in-process, capturing console output and progress lines written to stderr. */
export async function captureOutput(fn: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += `${a.join(' ')}\n`));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void (err += `${a.join(' ')}\n`));
  const write = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  }) as typeof process.stderr.write);
  try {
    return { code: await fn(), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}
