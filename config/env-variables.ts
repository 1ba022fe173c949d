/**
 * Every environment variable Meteopunto reads: the one list that the loader
 * validates, the docs table (docs/configuration.md) mirrors and a test keeps
 * the two and the source in step (test/config/drift.test.ts).
 *
 * The service's own settings are `METEOPUNTO_*`; the older `MP_*` names are
 * aliases for one release (a deprecation line is logged when one is used).
 * Conventional names (PORT, HOST, REDIS_URL, LOG_LEVEL) stay as they are.
 */

/** How a value is checked at start-up. */
export type VariableKind =
  | { type: 'string' }
  | { type: 'integer'; min: number; max?: number }
  | { type: 'redis-url' }
  | { type: 'log-level' }
  | { type: 'choice'; values: readonly string[] }
  | { type: 'domain' }
  | { type: 'tiles' }
  | { type: 'endpoint-url' };

export interface VariableSpec {
  name: string;
  /** Older names still accepted (deprecated). */
  aliases?: readonly string[];
  kind: VariableKind;
  /** The default as documented ('' when unset means "not configured"). */
  default: string;
  description: string;
  /** Who reads it: serve, ingest, worker, jobs, keys, bench. */
  usedBy: string;
}

const int = (min: number, max?: number): VariableKind => (max === undefined ? { type: 'integer', min } : { type: 'integer', min, max });
const str: VariableKind = { type: 'string' };

/** `METEOPUNTO_<NAME>` with the `MP_<NAME>` alias of the first release. */
function ours(name: string, kind: VariableKind, def: string, description: string, usedBy: string, alias = true): VariableSpec {
  return { name: `METEOPUNTO_${name}`, ...(alias ? { aliases: [`MP_${name}`] } : {}), kind, default: def, description, usedBy };
}

const quota = (plan: string, day: number, minute: number): VariableSpec[] => [
  ours(`QUOTA_${plan.toUpperCase()}_DAY`, int(1), String(day), `${plan} plan: requests per UTC day (resets 00:00 UTC)`, 'serve, keys'),
  ours(`QUOTA_${plan.toUpperCase()}_MINUTE`, int(1), String(minute), `${plan} plan: requests per minute (a 60 s window from the first request)`, 'serve, keys'),
];

export const VARIABLES: readonly VariableSpec[] = Object.freeze([
  { name: 'PORT', kind: int(0, 65535), default: '8080', description: 'HTTP port of `serve` and `start` (`--port` wins)', usedBy: 'serve, start' },
  { name: 'HOST', kind: str, default: '127.0.0.1', description: 'address `serve` listens on (`--host` wins)', usedBy: 'serve' },
  { name: 'LOG_LEVEL', kind: { type: 'log-level' }, default: 'info', description: 'pino log level of the server (fatal, error, warn, info, debug, trace, silent)', usedBy: 'serve' },
  ours('LOG_FORMAT', { type: 'choice', values: ['pretty', 'json'] }, '', 'server log format: `pretty` (one readable line per event, a line per request) or `json` (pino JSON lines); unset: `pretty` when stdout is a terminal, else `json`', 'serve, start', false),
  { name: 'REDIS_URL', kind: { type: 'redis-url' }, default: '', description: 'Redis for keys, quotas, job queues and publish announcements (`redis://` or `rediss://`); unset: embedded keys file and in-process quotas, no workers, new versions found by the manifest check alone', usedBy: 'serve, keys, worker, jobs, ingest' },
  ours('DATA', str, './data', 'data directory: tiles, keys.json, jobs.json, inbox', 'all', false),
  ours('DOMAIN', { type: 'domain' }, '35,48,5,20.5', 'ingest crop box `<south>,<north>,<west>,<east>` in degrees; the API validates lat/lon by the interface whatever this says', 'ingest, worker', false),
  ours('TILES', { type: 'tiles' }, '', 'where the tile store lives: a directory, or an S3-compatible bucket `s3://bucket/prefix` ([tiles.md](tiles.md#storage)); unset: `$METEOPUNTO_DATA/tiles`', 'all', false),
  ours('TILES_TIMEOUT_MS', int(100), '5000', 'with the tiles in a bucket: a request to it that has not completed after this long fails; the API answers 503 for what is not cached', 'serve, ingest, worker, tiles', false),
  ours('TILES_WARM_GETS', int(0, 64), '8', 'with the tiles in a bucket: GETs a warm keeps in flight for the blocks after the one it decodes (each waits the bucket\'s latency; 0: one block\'s chunks at a time)', 'serve', false),
  ours('CACHE_DIR', str, '', 'with the tiles in a bucket: a local directory caching the objects of versions read from it (LRU, bounded by METEOPUNTO_CACHE_MB); unset: none', 'serve, tiles', false),
  ours('CACHE_MB', int(16), '1024', 'with METEOPUNTO_CACHE_DIR: the most its files take, MiB (least recently used go first)', 'serve, tiles', false),
  { name: 'AWS_ENDPOINT_URL', kind: { type: 'endpoint-url' }, default: '', description: 'with the tiles in a bucket: the S3 endpoint of a store other than AWS (MinIO, Ceph, R2, …); path-style addressing then', usedBy: 'all' },
  { name: 'AWS_REGION', kind: str, default: 'us-east-1', description: 'with the tiles in a bucket: its region', usedBy: 'all' },
  { name: 'AWS_S3_FORCE_PATH_STYLE', kind: { type: 'choice', values: ['true', 'false'] }, default: '', description: 'with the tiles in a bucket: `true` for path-style addressing without AWS_ENDPOINT_URL, `false` for virtual-hosted with it; unset: path-style exactly when an endpoint is set', usedBy: 'all' },
  ours('TILE_CACHE_MB', int(16), '', 'decoded tile cache of the server, MiB; unset: sized from the published stores (their decoded size plus the largest again, for a new version warmed beside the live one; 256 MiB to half the memory)', 'serve', false),
  ours('HISTORY_CACHE_MB', int(16), '256', 'decoded cache of the reanalysis years (`time=` answers), MiB, apart from the tile cache so that history never evicts the forecast', 'serve', false),
  ours('DECODE_THREADS', int(0), '0', 'threads of `serve` decoding cold tile blocks off the event loop (0: on it)', 'serve', false),
  ours('INDEX_WORKERS', int(0), '', 'worker threads computing the derived indices at ingest (0: on the main thread); unset: one per core, at most 4', 'ingest, worker', false),
  ours('GRIB_PYTHON', str, '/usr/bin/python3', 'Python interpreter driving the ecCodes C library for GRIB decoding', 'ingest, worker', false),
  ours('ECCODES_LIB', str, '', 'path of libeccodes.so for the GRIB bridge; unset: the system library', 'ingest, worker', false),
  ours('JOBS_CONFIG', str, '', 'jobs configuration file; unset: `$METEOPUNTO_DATA/jobs.json`, else built-in inbox sources', 'worker, jobs', false),
  ours('QUEUE_PREFIX', str, 'meteopunto', 'Redis key prefix of the job queues (deployments sharing one Redis use distinct prefixes)', 'worker, jobs, serve'),
  ours('WORKER_CONCURRENCY', int(1), '1', 'ingest jobs one worker process runs at once (`--concurrency` wins)', 'worker'),
  ours('HEADERS_TIMEOUT_MS', int(100), '10000', 'time a client has to send its request line and headers, ms (slow clients are cut off with 408)', 'serve', false),
  ours('REQUEST_TIMEOUT_MS', int(100), '30000', 'time a client has to send its whole request, ms', 'serve', false),
  ours('KEEP_ALIVE_TIMEOUT_MS', int(1000), '65000', 'idle keep-alive connections are closed after this, ms (keep it above the load balancer\'s idle timeout, 60 s on most)', 'serve', false),
  ours('MAX_CONNECTIONS', int(1), '10000', 'open sockets the server accepts at once; more are closed at accept', 'serve', false),
  ours('CORS_ORIGINS', str, '', 'origins whose web pages may call weather.php from the browser (CORS): comma-separated `https://host[:port]`, or `*`; unset: none', 'serve', false),
  ours('TRUST_PROXY', str, '', 'proxies in front of `serve` whose X-Forwarded-For is believed: `true` (any) or comma-separated addresses/CIDRs; unset: none (the flood guard then sees the proxy\'s address)', 'serve', false),
  ours('ADMIN_TOKEN', str, '', 'operator token; with REDIS_URL, mounts the queue dashboard at /admin/queues', 'serve'),
  ...quota('free', 50, 2),
  ...quota('developer', 10_000, 60),
  ...quota('business', 200_000, 600),
  ours('FLOOD_REFUSED_PER_MINUTE', int(1), '30', 'refused requests (4xx other than 429) per minute per key, or per IP without a valid key, before 429', 'serve'),
  ours('KEYS_STALE_IF_ERROR_S', int(0), '300', 'with Redis unreachable, a key verified within this many seconds is still accepted (0: refuse with 503)', 'serve'),
  { name: 'BENCH_SECTIONS', kind: str, default: '', description: '`npm run bench`: the sections to run, comma-separated (bench/sections.ts; with the sections they need); unset: all', usedBy: 'bench' },
  { name: 'BENCH_SECONDS', kind: int(1), default: '8', description: '`npm run bench`: measuring time per HTTP server, s', usedBy: 'bench' },
  { name: 'BENCH_CONNECTIONS', kind: int(1), default: '32', description: '`npm run bench`: keep-alive connections of the load generator', usedBy: 'bench' },
  { name: 'BENCH_PLANS', kind: str, default: 'business,free', description: '`npm run bench`: plans of the keys weather.php is measured with', usedBy: 'bench' },
  { name: 'BENCH_REDIS_URL', kind: { type: 'redis-url' }, default: '', description: '`npm run bench`: serve weather.php with its keys and quotas in this Redis (as a multi-replica deployment); unset: embedded keys, in-memory quotas', usedBy: 'bench' },
  { name: 'BENCH_RANDOM_REQUESTS', kind: int(1), default: '1000000', description: '`npm run bench`: requests of the random-points run, after which the server\'s RSS is checked against its tile cache size plus a stated overhead', usedBy: 'bench' },
  { name: 'BENCH_REANALYSIS_DAYS', kind: int(1), default: '365', description: '`npm run bench`: days of the generated ERA5 year the reanalysis case ingests', usedBy: 'bench' },
  { name: 'BENCH_REANALYSIS_DATA', kind: str, default: '', description: '`npm run bench`: a data directory where the generated ERA5 year is already ingested: the reanalysis case measures time= on it and no ingest', usedBy: 'bench' },
  { name: 'BENCH_TIME_REQUESTS', kind: int(1), default: '5000', description: '`npm run bench`: time= requests at random points and hours of the reanalysis year, at the default cache (their p99 is checked)', usedBy: 'bench' },
  { name: 'BENCH_PROFILE_DIR', kind: str, default: '', description: '`npm run bench`: write CPU profiles of the servers here', usedBy: 'bench' },
  { name: 'BENCH_AB_WINDOWS', kind: str, default: '', description: '`bench/http-ab.ts`, `http-ab-inject.ts`: the windows to measure, comma-separated (access, business, free, widget); unset: all', usedBy: 'bench' },
  { name: 'BENCH_AB_TOGETHER', kind: str, default: '', description: '`bench/http-ab.ts`: `1` loads A and B at once, half the connections each', usedBy: 'bench' },
  { name: 'BENCH_AB_INTERLEAVE', kind: int(0), default: '0', description: '`bench/http-ab.ts`: load A and B in turns of this many ms within each window; 0: one after the other', usedBy: 'bench' },
]);

const BY_NAME = new Map<string, VariableSpec>();
for (const v of VARIABLES) {
  BY_NAME.set(v.name, v);
  for (const a of v.aliases ?? []) BY_NAME.set(a, v);
}

/** The declared variable a name (canonical or alias) belongs to. */
export function variableSpec(name: string): VariableSpec | undefined {
  return BY_NAME.get(name);
}
