/**
 * The CLI's own output behind the redaction rule (config/redaction.ts): what
 * a command writes to stdout and stderr — messages, errors, job failure
 * reasons a provider wrote — has every secret cut, with the secrets of the
 * environment (credential-named variables, REDIS_URL's password) removed.
 * `keys` and `start` keep stdout as written: showing a new key once is
 * their job; their stderr is redacted all the same.
 */
import { redactSecrets } from '../config/redaction.js';

/** Commands whose stdout shows a new key by design. */
const SHOWS_KEYS = new Set(['keys', 'start']);

function redactWrites(stream: NodeJS.WriteStream, secrets: readonly string[]): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : undefined;
    return write(text === undefined ? chunk : redactSecrets(text, secrets), ...rest);
  }) as NodeJS.WriteStream['write'];
}

/** Redacts what `command` writes from now on through process.stdout and process.stderr. */
export function redactCliOutput(command: string, secrets: readonly string[]): void {
  redactWrites(process.stderr, secrets);
  if (!SHOWS_KEYS.has(command)) redactWrites(process.stdout, secrets);
}
