// Worker bootstrap used only when the sources run as TypeScript (vitest,
// tsx): registers the tsx loader in the worker thread, then loads the real
// entry (./worker.ts). Compiled builds start dist/.../worker.js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
