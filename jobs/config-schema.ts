/**
 * Schema of the jobs configuration (`$METEOPUNTO_DATA/jobs.json`, or the file
 * `METEOPUNTO_JOBS_CONFIG` names). The schema is the single source of the
 * config types; jobs/config.ts loads, validates and fills defaults.
 * Durations are seconds (fractions allowed), sizes bytes.
 */
import { Type, type Static } from '@sinclair/typebox';

const Seconds = (description: string, minimum = 0.001) => Type.Number({ exclusiveMinimum: 0, minimum, description });

export const ScheduleSchema = Type.Object(
  {
    cron: Type.Optional(Type.String({ minLength: 1, description: 'cron pattern (5 or 6 fields), e.g. "20 * * * *"' })),
    everySeconds: Type.Optional(Seconds('fixed interval instead of a cron pattern', 0.1)),
    tz: Type.Optional(Type.String({ description: 'IANA time zone of the cron pattern, default UTC' })),
  },
  { additionalProperties: false, description: 'exactly one of cron / everySeconds' },
);

export const RunSchema = Type.Object(
  {
    cycleHours: Type.Number({ minimum: 1, maximum: 24, description: 'runs start every N hours from 00 UTC' }),
    availableAfterMinutes: Type.Number({ minimum: 0, description: 'delay between the nominal run time and its publication' }),
  },
  { additionalProperties: false },
);

export const TimeoutsSchema = Type.Object(
  {
    headersSeconds: Type.Optional(Seconds('connect + time to response headers')),
    idleSeconds: Type.Optional(Seconds('longest pause between two body chunks')),
    totalSeconds: Type.Optional(Seconds('whole download of one file')),
  },
  { additionalProperties: false },
);

export const HttpSourceSchema = Type.Object(
  {
    kind: Type.Literal('http'),
    urls: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'URL templates (see jobs/sources/url-template.ts)' }),
    steps: Type.Optional(Type.String({ description: 'forecast hours for {step}: "0-48", "0-78/1,81-120/3"' })),
    decompress: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('bzip2'), Type.Literal('none')])),
    checksumUrl: Type.Optional(Type.String({ description: 'template of a published checksum file, e.g. "{url}.sha256"' })),
    checksumAlgorithm: Type.Optional(Type.Union([Type.Literal('sha256'), Type.Literal('sha512'), Type.Literal('md5')])),
    maxBytes: Type.Optional(Type.Integer({ minimum: 1, description: 'per file, compressed and decompressed' })),
    parallel: Type.Optional(Type.Integer({ minimum: 1, maximum: 32 })),
    notFound: Type.Optional(Type.Union([Type.Literal('retry'), Type.Literal('fail')])),
    timeouts: Type.Optional(TimeoutsSchema),
  },
  { additionalProperties: false },
);

export const InboxSourceSchema = Type.Object(
  {
    kind: Type.Literal('inbox'),
    dir: Type.String({ minLength: 1, description: 'inbox directory, relative to $METEOPUNTO_DATA unless absolute' }),
    settleSeconds: Type.Optional(Type.Number({ minimum: 0, description: 'ignore files modified more recently than this' })),
  },
  { additionalProperties: false },
);

export const AdsSourceSchema = Type.Object(
  {
    kind: Type.Literal('ads'),
    api: Type.String({ minLength: 1, description: 'API root, e.g. https://ads.atmosphere.copernicus.eu/api' }),
    dataset: Type.String({ minLength: 1, description: 'ADS dataset, e.g. cams-europe-air-quality-forecasts' }),
    request: Type.Record(Type.String(), Type.Unknown(), { description: 'the dataset request; strings may use the run placeholders of URL templates ({yyyy}, {mm}, {dd}, ...)' }),
    keyEnv: Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$', description: 'environment variable holding the personal API key (never the key itself)' }),
    fileName: Type.Optional(Type.String({ minLength: 1, description: 'local file name template, default "{product}-{yyyymmddHH}.nc"' })),
    pollSeconds: Type.Optional(Seconds('how often the ADS job status is asked', 0.01)),
    maxWaitSeconds: Type.Optional(Seconds('longest wait for the ADS job, then retry later')),
    maxBytes: Type.Optional(Type.Integer({ minimum: 1 })),
    timeouts: Type.Optional(TimeoutsSchema),
  },
  { additionalProperties: false },
);

export const ProductJobsSchema = Type.Object(
  {
    schedule: Type.Optional(ScheduleSchema),
    run: Type.Optional(RunSchema),
    model: Type.Optional(Type.String({ description: 'provenance written into the manifest' })),
    source: Type.Union([HttpSourceSchema, InboxSourceSchema, AdsSourceSchema]),
  },
  { additionalProperties: false },
);

/**
 * A reanalysis backfill source (docs/history.md), `{yyyy}` = the year: per-year
 * URL templates (NOAA PSL's 20CRv3 files, a mirror of ERA5 files) or a
 * Climate Data Store request (ERA5; the CDS speaks the ADS API, key from the
 * environment variable `keyEnv`).
 */
export const BackfillSourceSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ description: 'source named in the manifest and temperature_source (default ERA5 / 20CRv3)' })),
    source: Type.Union([HttpSourceSchema, AdsSourceSchema]),
  },
  { additionalProperties: false },
);

export const JobsConfigSchema = Type.Object(
  {
    products: Type.Record(Type.String({ pattern: '^[a-z0-9_-]+$' }), ProductJobsSchema),
    backfill: Type.Optional(Type.Object({ era5: Type.Optional(BackfillSourceSchema), '20crv3': Type.Optional(BackfillSourceSchema) }, { additionalProperties: false })),
    retry: Type.Optional(
      Type.Object(
        {
          attempts: Type.Integer({ minimum: 1, maximum: 50 }),
          backoffSeconds: Seconds('first retry delay; doubles each attempt'),
        },
        { additionalProperties: false },
      ),
    ),
    keepCompletedDays: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    keepFailedDays: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    worker: Type.Optional(
      Type.Object(
        {
          lockSeconds: Type.Optional(Seconds('job lock; renewed every half of it while the job runs', 1)),
          stalledCheckSeconds: Type.Optional(Seconds('how often workers look for jobs whose lock expired', 0.5)),
          maxStalledCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
          shutdownGraceSeconds: Type.Optional(Type.Number({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ScheduleConfig = Static<typeof ScheduleSchema>;
export type RunConfig = Static<typeof RunSchema>;
export type HttpSourceConfig = Static<typeof HttpSourceSchema>;
export type InboxSourceConfig = Static<typeof InboxSourceSchema>;
export type AdsSourceConfig = Static<typeof AdsSourceSchema>;
export type ProductJobsConfig = Static<typeof ProductJobsSchema>;
export type JobsConfigFile = Static<typeof JobsConfigSchema>;
export type BackfillSourceConfig = Static<typeof BackfillSourceSchema>;
