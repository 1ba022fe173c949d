/**
 * Waits for a server child process (`meteopunto serve`, the API's own CLI) to
 * print Fastify's "Server listening at http://…" line, and keeps what it
 * prints for failure messages.
 */
import type { ChildProcess } from 'node:child_process';

export interface Listening {
  /** The base URL the server printed. */
  url: string;
  /** Everything the process printed so far (its last `keepChars` characters). */
  output(): string;
}

/**
 * @param child a process spawned with stdout and stderr piped
 * @param name what the process is, for the failure messages
 * @param opts.timeoutMs how long to wait for the line
 * @param opts.keepChars keep only the end of the output (a long run's request log), default everything
 */
export function waitForListening(child: ChildProcess, name: string, opts: { timeoutMs: number; keepChars?: number }): Promise<Listening> {
  let out = '';
  const output = () => out;
  return new Promise<Listening>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not listen within ${opts.timeoutMs / 1000} s:\n${out}`)), opts.timeoutMs);
    const onData = (b: Buffer) => {
      out += b.toString();
      if (opts.keepChars !== undefined) out = out.slice(-opts.keepChars);
      const m = /listening (?:at|on) (http:\/\/[\d.]+:\d+)/i.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ url: m[1]!, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited with ${code}:\n${out}`));
    });
  });
}
