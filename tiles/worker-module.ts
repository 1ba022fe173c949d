/**
 * Where a worker thread's code is, for the three pools that start threads
 * (tiles/write/encode-threads.ts, tiles/read/decode-pool.ts,
 * ingest/indices/pool.ts): compiled JavaScript next to the pool in dist/;
 * under vitest/tsx, where the sources run as TypeScript, one bootstrap
 * (./worker-ts.mjs) that registers tsx in the thread and then imports the
 * entry's .ts named in `workerData` (Node 20 does not apply `--import tsx` to
 * a worker's entry).
 */

export interface WorkerModule {
  /** The module a thread starts: `new Worker(url, ...)`, piscina's `filename: url.href`. */
  readonly url: URL;
  /** For the thread under tsx: the entry the bootstrap imports; absent for compiled code. */
  readonly workerData?: { readonly entry: string };
}

/** The bootstrap for TypeScript sources (never in dist/: compiled pools start their entry directly). */
const TS_BOOTSTRAP = new URL('./worker-ts.mjs', import.meta.url);

/**
 * The worker `name` (a module beside the caller, without extension) as `callerUrl`'s
 * own code runs: `workerModule(import.meta.url, 'encode-worker')`.
 */
export function workerModule(callerUrl: string, name: string): WorkerModule {
  if (callerUrl.endsWith('.ts')) return { url: TS_BOOTSTRAP, workerData: { entry: new URL(`./${name}.ts`, callerUrl).href } };
  return { url: new URL(`./${name}.js`, callerUrl) };
}
