// The worker-thread bootstrap used only when the sources run as TypeScript
// (vitest, tsx; ./worker-module.ts): registers the tsx loader in the thread,
// then imports the real entry named in workerData and re-exports its default
// (a piscina task; a plain worker such as ingest/indices/worker.ts has none
// and runs on import). Compiled builds start dist/.../<entry>.js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
export default (await import(workerData.entry)).default;
