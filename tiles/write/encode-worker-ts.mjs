// Encode-thread bootstrap used only when the sources run as TypeScript
// (vitest, tsx): registers the tsx loader in the thread, then exports the
// real task (./encode-worker.ts). Compiled builds load dist/tiles/write/encode-worker.js.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
export default (await import(workerData.entry)).default;
