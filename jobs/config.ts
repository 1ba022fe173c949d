/**
 * Loads the jobs configuration: `METEOPUNTO_JOBS_CONFIG`, else
 * `$METEOPUNTO_DATA/jobs.json`, else built-in defaults (inbox sources only:
 * real endpoints are configuration, never code constants). Validates it
 * against jobs/config-schema.ts and fills defaults, so the rest of jobs/
 * never sees an optional knob.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { JobsConfigSchema, type BackfillSourceConfig, type JobsConfigFile, type ProductJobsConfig, type RunConfig } from './config-schema.js';
import { adsRequestProblem } from './sources/ads-requests.js';
import { checkTemplate, usesRoot, usesStep } from './sources/url-template.js';
import { parseSteps } from './sources/steps.js';
import { processEnv } from '../config/process-env.js';

export interface WorkerTuning {
  /** Job lock; a worker renews it every lockMs/2 while the job runs. A killed worker's job is recovered after at most lockMs + stalledIntervalMs. */
  lockMs: number;
  stalledIntervalMs: number;
  /** A job whose worker died more often than this fails instead of being recovered again. */
  maxStalledCount: number;
  /** On SIGTERM, how long running jobs may finish before they are handed back to the queue. */
  shutdownGraceMs: number;
}

export interface JobsConfig {
  /** File the configuration came from; null for the built-in defaults. */
  path: string | null;
  products: Record<string, ProductJobsConfig>;
  /** Reanalysis backfill sources by name (`meteopunto backfill reanalysis --source`); absent when not configured. */
  backfill: { era5?: BackfillSourceConfig; '20crv3'?: BackfillSourceConfig };
  retry: { attempts: number; backoffMs: number };
  keepCompletedSeconds: number;
  keepFailedSeconds: number;
  worker: WorkerTuning;
}

/** Used when no jobs.json exists: files dropped into $METEOPUNTO_DATA/inbox/<product>/ are ingested. */
export const DEFAULT_PRODUCTS: Record<string, ProductJobsConfig> = {
  nwp: { schedule: { cron: '5 * * * *' }, source: { kind: 'inbox', dir: 'inbox/nwp' } },
  cams: { schedule: { cron: '30 6 * * *' }, source: { kind: 'inbox', dir: 'inbox/cams' } },
  // SST and waves dropped in by the operator; jobs/examples/marine-cmems.jobs.json fetches them from Copernicus Marine (docs/coastal.md).
  marine: { schedule: { cron: '40 * * * *' }, source: { kind: 'inbox', dir: 'inbox/marine' } },
  // ERA5-Land soil layers, daily (the CDS publishes them about five days behind): docs/soil.md.
  soil: { schedule: { cron: '15 7 * * *' }, source: { kind: 'inbox', dir: 'inbox/soil' } },
  // CM SAF SARAH effective cloud albedo: its continuation arrives about five days late, a day at a time: docs/uv.md.
  uv: { schedule: { cron: '20 6 * * *' }, source: { kind: 'inbox', dir: 'inbox/uv' } },
  // LSA SAF MSG DSSF: an hour's four 15-minute slots published about 80 min after the hour begins: docs/uv.md.
  'uv-nrt': { schedule: { cron: '25 * * * *' }, source: { kind: 'inbox', dir: 'inbox/uv-nrt' } },
};

const DAY_S = 86_400;

/** Default run cycle for HTTP sources that give none: hourly runs, available at once. */
export const DEFAULT_RUN: RunConfig = { cycleHours: 1, availableAfterMinutes: 0 };

export class JobsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobsConfigError';
  }
}

export function configPath(root: string, env: NodeJS.ProcessEnv = processEnv()): { path: string; explicit: boolean } {
  const p = env.METEOPUNTO_JOBS_CONFIG;
  return p && p.length > 0 ? { path: p, explicit: true } : { path: join(root, 'jobs.json'), explicit: false };
}

export async function loadJobsConfig(root: string, env: NodeJS.ProcessEnv = processEnv()): Promise<JobsConfig> {
  const { path, explicit } = configPath(root, env);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) return resolveConfig({ products: DEFAULT_PRODUCTS }, null);
    throw new JobsConfigError(`jobs config ${path}: cannot read (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new JobsConfigError(`jobs config ${path}: invalid JSON (${(err as Error).message})`);
  }
  return parseJobsConfig(json, path);
}

/** The environment variables the configured sources read their credentials from (an ADS/CDS `keyEnv`, a basic-auth `passwordEnv`, ...). */
export function credentialEnvNames(config: JobsConfig): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (/(key|password|token|secret)Env$/i.test(k) && typeof x === 'string') names.add(x);
        else walk(x);
      }
    }
  };
  walk(config);
  return [...names];
}

/** Validates a parsed jobs.json (exported for tests and for configs built in code). */
export function parseJobsConfig(json: unknown, path: string | null): JobsConfig {
  const where = path ?? 'jobs config';
  if (!Value.Check(JobsConfigSchema, json)) {
    const first = Value.Errors(JobsConfigSchema, json).First();
    const at = first?.path ? first.path : '/';
    throw new JobsConfigError(`${where}: ${at}: ${first?.message ?? 'does not match the schema'}`);
  }
  for (const [name, product] of Object.entries(json.products)) {
    checkProduct(where, name, product);
    if (product.fallback) {
      if (product.source.kind !== 'meteohub') throw new JobsConfigError(`${where}: /products/${name}/fallback: only a meteohub source has a late run to fall back from`);
      checkProduct(where, name, { source: product.fallback.source }, `${where}: /products/${name}/fallback`);
    }
  }
  for (const [name, b] of Object.entries(json.backfill ?? {})) if (b) checkProduct(where, name, { source: b.source }, `${where}: /backfill/${name}`);
  return resolveConfig(json, path);
}

function checkProduct(where: string, name: string, p: ProductJobsConfig, at = `${where}: /products/${name}`): void {
  if (p.schedule) {
    const kinds = [p.schedule.cron, p.schedule.everySeconds].filter((v) => v !== undefined).length;
    if (kinds !== 1) throw new JobsConfigError(`${at}/schedule: give exactly one of cron, everySeconds`);
  }
  if (p.source.kind === 'ads') {
    const ads = p.source;
    const strings = (v: unknown): string[] =>
      typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
    try {
      for (const s of [...strings(ads.request), ads.fileName ?? '']) checkTemplate(s);
    } catch (err) {
      throw new JobsConfigError(`${at}/source: ${(err as Error).message}`);
    }
    const problem = adsRequestProblem(ads);
    if (problem) throw new JobsConfigError(`${at}/source: ${problem}`);
    return;
  }
  if (p.source.kind !== 'http') return;
  const src = p.source;
  try {
    for (const u of src.urls) checkTemplate(u);
    if (src.checksumUrl) checkTemplate(src.checksumUrl, true);
    if (src.urls.some(usesRoot) && !src.root) throw new Error('a URL uses {root} but no root is configured');
    const stepped = src.urls.some(usesStep);
    if (stepped && !src.steps) throw new Error('a URL uses {step} but no steps are configured');
    if (src.steps) parseSteps(src.steps);
  } catch (err) {
    throw new JobsConfigError(`${at}/source: ${(err as Error).message}`);
  }
}

function resolveConfig(file: JobsConfigFile, path: string | null): JobsConfig {
  const w = file.worker ?? {};
  return {
    path,
    products: file.products,
    backfill: file.backfill ?? {},
    retry: {
      attempts: file.retry?.attempts ?? 5,
      backoffMs: Math.round((file.retry?.backoffSeconds ?? 30) * 1000),
    },
    keepCompletedSeconds: Math.round((file.keepCompletedDays ?? 7) * DAY_S),
    keepFailedSeconds: Math.round((file.keepFailedDays ?? 30) * DAY_S),
    worker: {
      lockMs: Math.round((w.lockSeconds ?? 60) * 1000),
      stalledIntervalMs: Math.round((w.stalledCheckSeconds ?? 30) * 1000),
      maxStalledCount: w.maxStalledCount ?? 2,
      shutdownGraceMs: Math.round((w.shutdownGraceSeconds ?? 60) * 1000),
    },
  };
}

/** The product's configuration, or a clear error naming the products that are configured. */
export function productConfig(config: JobsConfig, product: string): ProductJobsConfig {
  const p = config.products[product];
  if (!p) {
    const known = Object.keys(config.products).join(', ') || 'none';
    throw new JobsConfigError(`product '${product}' has no source in ${config.path ?? 'the built-in jobs config'} (configured: ${known})`);
  }
  return p;
}
