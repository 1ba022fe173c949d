/**
 * The server's log for a format (config/log-format.ts):
 *
 * - json: pino's JSON lines as Fastify writes them, a line when a request
 *   arrives and one when it is answered (log shippers join them by reqId);
 * - pretty: for a person at a terminal. pino-pretty runs in-process and
 *   writes synchronously, so the log and the CLI's own lines keep their
 *   order; each request is one line, written when it is answered: method,
 *   URL with every secret cut (config/redaction.ts), status and
 *   milliseconds.
 */
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { PinoPretty } from 'pino-pretty';
import type { LogFormat } from '../config/log-format.js';
import { redactSecrets } from '../config/redaction.js';

export interface ServerLogging {
  logger: FastifyServerOptions['logger'];
  /** One line per answered request instead of Fastify's two. */
  requestLines: boolean;
}

/** Logger options for `format` at `level`; `destination`: where pretty lines go (default stdout). */
export function serverLogging(format: LogFormat, level: string, destination?: NodeJS.WritableStream): ServerLogging {
  if (format === 'json') return { logger: { level }, requestLines: false };
  const stream = PinoPretty({
    colorize: destination === undefined ? process.stdout.isTTY === true : false,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId',
    singleLine: true,
    sync: true,
    ...(destination ? { destination } : {}),
  });
  return { logger: { level, stream }, requestLines: true };
}

/**
 * Fastify's request log as one line per request, written when it is
 * answered: `GET /api/v1/weather.php?lat=41.9&lon=12.5&api_key=mp_AbCdEfGh… 200 1.4 ms`
 * (an error line when the answer failed); nothing when it arrives.
 */
export class RequestLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // As Fastify's own line: not for a request the controller's disableRequestLogging leaves out (api/app.ts).
    if (this.isLogDisabled(request)) return;
    const line = `${request.method} ${redactSecrets(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}
