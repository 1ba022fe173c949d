/**
 * Requests that are ready together are answered together. The app's first
 * onRequest hook hands each request on to the check phase of the event loop
 * (setImmediate). A busy server therefore first reads and parses every
 * request that has arrived, then answers them one after the other, instead
 * of answering each before reading the next. The code that answers (keys,
 * tiles, indices, serialisation) then runs many times in a row, and the
 * responses leave together.
 *
 * Measured in alternating rounds (docs/benchmarks.md, "Answering in
 * batches"): with embedded keys and quotas, where nothing else gathers the
 * requests, weather.php's server CPU per request fell by 7–17 %. With keys
 * and quotas in Redis, the quota's round trip already gathers them, and the
 * change measured neutral. Under light load it costs one pass of the event
 * loop.
 *
 * `elapsed_ms` (./timing.ts) is stamped here, when the request carries on
 * after this hand-over, so it does not count the wait for the other requests
 * of the batch, just as it never counted the time before a request was read
 * (one hook for both: each hook costs Fastify a step per request).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stampRequest } from './timing.js';

function carryOn(request: FastifyRequest, done: () => void): void {
  stampRequest(request);
  done();
}

/** The onRequest hook: carries on in the check phase, after the poll phase has read what is ready. */
export function deferToCheckPhase(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  setImmediate(carryOn, request, done);
}

/** Registers the hand-over as the app's first onRequest hook (call before any other hook is added). */
export function registerBatching(app: FastifyInstance): void {
  app.addHook('onRequest', deferToCheckPhase);
}
