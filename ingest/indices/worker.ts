/**
 * Worker-thread entry of the index precomputation: receives a band job,
 * computes it with the same kernel the calling thread uses, and transfers
 * the result arrays back (no copy).
 */
import { parentPort } from 'node:worker_threads';
import { computeBand, type BandJob, type BandResult } from './kernel.js';

export interface BandRequest {
  id: number;
  job: BandJob;
}

export type BandReply = { id: number; result: BandResult } | { id: number; error: string };

if (parentPort) {
  const port = parentPort;
  port.on('message', (msg: BandRequest) => {
    let reply: BandReply;
    let transfer: ArrayBuffer[] = [];
    try {
      const result = computeBand(msg.job);
      reply = { id: msg.id, result };
      transfer = Object.values(result).map((a) => a!.buffer as ArrayBuffer);
    } catch (err) {
      reply = { id: msg.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(reply, transfer);
  });
}
