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

export const RetryInPlaceSchema = Type.Object(
  {
    firstDelaySeconds: Type.Optional(Seconds('wait before the first retry of a failed call, doubled each retry, with jitter (default 1)')),
    maxDelaySeconds: Type.Optional(Seconds('longest wait between two tries (default 120); a longer Retry-After is still honoured')),
  },
  { additionalProperties: false, description: 'each HTTP call retried in place on 408, 429, 5xx, connection errors and timeouts, until maxWaitSeconds' },
);

const EnvName = (what: string) => Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$', description: `environment variable holding ${what} on each worker (never the value itself)` });

export const BasicAuthSchema = Type.Object(
  { userEnv: EnvName('the user name'), passwordEnv: EnvName('the password') },
  { additionalProperties: false, description: 'HTTP basic authentication (RFC 7617) from environment variables, e.g. the LSA SAF data server' },
);

const MaxWait = (what: string) => Seconds(`longest time one job attempt spends ${what}, retries in place included; then the attempt fails and BullMQ retries the job later`);

export const HttpSourceSchema = Type.Object(
  {
    kind: Type.Literal('http'),
    root: Type.Optional(Type.String({ minLength: 1, description: 'provider root filled into {root} in the URL templates, so that a mirror is one setting, e.g. "https://opendata.dwd.de"' })),
    urls: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'URL templates (see jobs/sources/url-template.ts)' }),
    steps: Type.Optional(Type.String({ description: 'forecast hours for {step}: "0-48", "0-78/1,81-120/3"' })),
    decompress: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('bzip2'), Type.Literal('none')])),
    checksumUrl: Type.Optional(Type.String({ description: 'template of a published checksum file, e.g. "{url}.sha256"' })),
    checksumAlgorithm: Type.Optional(Type.Union([Type.Literal('sha256'), Type.Literal('sha512'), Type.Literal('md5')])),
    maxBytes: Type.Optional(Type.Integer({ minimum: 1, description: 'per file, compressed and decompressed' })),
    parallel: Type.Optional(Type.Integer({ minimum: 1, maximum: 32 })),
    notFound: Type.Optional(Type.Union([Type.Literal('retry'), Type.Literal('fail')])),
    timeouts: Type.Optional(TimeoutsSchema),
    maxWaitSeconds: Type.Optional(MaxWait('downloading (default 3600)')),
    retryInPlace: Type.Optional(RetryInPlaceSchema),
    basicAuth: Type.Optional(BasicAuthSchema),
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
    pollSeconds: Type.Optional(Seconds('longest pause between two looks at the ADS job (the first after 1 s, then growing by half each time)', 0.01)),
    maxWaitSeconds: Type.Optional(MaxWait('on the ADS jobs and their results (default 10800)')),
    split: Type.Optional(Type.Literal('month', { description: 'one request per month of request.month (its days only): the data stores advise a month per request for hourly ERA5; each month is its own file, ingested in time order' })),
    invariantVariables: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'time-invariant variables (geopotential, land_sea_mask) asked for once, in a request of their own for the first date and time, and left out of the other requests' }),
    ),
    parallel: Type.Optional(Type.Integer({ minimum: 1, maximum: 8, description: 'requests of one job submitted and followed at once (default 1)' })),
    maxBytes: Type.Optional(Type.Integer({ minimum: 1 })),
    timeouts: Type.Optional(TimeoutsSchema),
    retryInPlace: Type.Optional(RetryInPlaceSchema),
  },
  { additionalProperties: false },
);

/**
 * MeteoHub open data (ItaliaMeteo, jobs/sources/meteohub.ts): the run list
 * `{root}/api/datasets/{dataset}/opendata` and the per-variable files under
 * `{root}/nwp/{directory}/{yyyymmddHH}/{VAR}/`, found from the directory
 * listings. The newest complete run is taken; none newer than
 * `lateAfterHours` makes the run late (then the product's fallback).
 */
export const MeteohubSourceSchema = Type.Object(
  {
    kind: Type.Literal('meteohub'),
    root: Type.String({ minLength: 1, description: 'site root, e.g. https://meteohub.agenziaitaliameteo.it (a mirror may stand in)' }),
    dataset: Type.String({ pattern: '^[A-Za-z0-9_-]+$', description: 'dataset of the run list, e.g. ICON_2I_SURFACE_PRESSURE_LEVELS' }),
    directory: Type.String({ pattern: '^[A-Za-z0-9_-]+$', description: 'per-run folder tree under /nwp/, e.g. ICON-2I_SURFACE_PRESSURE_LEVELS' }),
    variables: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_]+$' }), { minItems: 1, description: 'variable folders a run must have to be complete' }),
    optionalVariables: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z0-9_]+$' }), { description: 'variable folders taken when the run has them (WW)' })),
    lateAfterHours: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'a run is late when no complete run has a nominal time within this many hours (default 18: a 12-hourly model plus 6 h to publish)' })),
    maxBytes: Type.Optional(Type.Integer({ minimum: 1 })),
    parallel: Type.Optional(Type.Integer({ minimum: 1, maximum: 32 })),
    timeouts: Type.Optional(TimeoutsSchema),
    maxWaitSeconds: Type.Optional(MaxWait('on the listings and downloads (default 3600)')),
    retryInPlace: Type.Optional(RetryInPlaceSchema),
  },
  { additionalProperties: false },
);

/** The source a product falls back to when its primary's run is late (jobs/resolve-job.ts). */
export const FallbackSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ description: 'provenance of the fallback, named in the manifest and temperature_source' })),
    run: Type.Optional(RunSchema),
    source: Type.Union([HttpSourceSchema, AdsSourceSchema]),
  },
  { additionalProperties: false },
);

export const MarineDatasetSchema = Type.Object(
  {
    product: Type.String({ pattern: '^[A-Za-z0-9_.-]+$', description: 'Copernicus Marine product, e.g. SST_MED_SST_L4_NRT_OBSERVATIONS_010_004' }),
    dataset: Type.String({ pattern: '^[A-Za-z0-9_.-]+$', description: 'dataset id without its version, e.g. cmems_mod_med_wav_anfc_4.2km_PT1H-i (the newest version is used)' }),
    daysBack: Type.Optional(Type.Integer({ minimum: 0, maximum: 31, description: 'files dated from this many days before the run day (default 0)' })),
    daysAhead: Type.Optional(Type.Integer({ minimum: 0, maximum: 15, description: 'to this many days after it (default 0; forecasts: 2 or more)' })),
    latest: Type.Optional(Type.Integer({ minimum: 1, description: 'only the newest this many dates in the window (a daily analysis: 1)' })),
  },
  { additionalProperties: false },
);

export const CopernicusMarineSourceSchema = Type.Object(
  {
    kind: Type.Literal('copernicus-marine'),
    stac: Type.String({ minLength: 1, description: 'STAC root of the Marine Data Store, https://stac.marine.copernicus.eu/metadata (a mirror may stand in)' }),
    datasets: Type.Array(MarineDatasetSchema, { minItems: 1 }),
    maxBytes: Type.Optional(Type.Integer({ minimum: 1, description: 'per file' })),
    parallel: Type.Optional(Type.Integer({ minimum: 1, maximum: 32 })),
    timeouts: Type.Optional(TimeoutsSchema),
    maxWaitSeconds: Type.Optional(MaxWait('listing and downloading (default 3600)')),
    retryInPlace: Type.Optional(RetryInPlaceSchema),
  },
  { additionalProperties: false },
);

export const ProductJobsSchema = Type.Object(
  {
    schedule: Type.Optional(ScheduleSchema),
    run: Type.Optional(RunSchema),
    model: Type.Optional(Type.String({ description: 'provenance written into the manifest' })),
    source: Type.Union([HttpSourceSchema, InboxSourceSchema, AdsSourceSchema, MeteohubSourceSchema, CopernicusMarineSourceSchema]),
    fallback: Type.Optional(FallbackSchema),
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
export type CopernicusMarineSourceConfig = Static<typeof CopernicusMarineSourceSchema>;
export type MeteohubSourceConfig = Static<typeof MeteohubSourceSchema>;
export type FallbackConfig = Static<typeof FallbackSchema>;
export type RetryInPlaceConfig = Static<typeof RetryInPlaceSchema>;
export type ProductJobsConfig = Static<typeof ProductJobsSchema>;
export type JobsConfigFile = Static<typeof JobsConfigSchema>;
export type BackfillSourceConfig = Static<typeof BackfillSourceSchema>;
