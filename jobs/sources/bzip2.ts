/**
 * bzip2 decompression by Debian's `bzip2 -dc` in a child process.
 *
 * Why a subprocess and not an npm package: Node has no bzip2; the pure-JS
 * decoders on npm (unbzip2-stream, seek-bzip) are unmaintained and decode on
 * the event loop, where a 50 MB GRIB would stall lock renewal. The reference
 * C implementation streams, uses another core, and is one `apt-get install
 * bzip2` away on every Debian/Ubuntu image.
 */
import { spawn } from 'node:child_process';
import { Duplex } from 'node:stream';
import { SourceError } from './source-error.js';

export interface Bunzip2 {
  /** Write compressed bytes in, read decompressed bytes out. */
  stream: Duplex;
  /** Resolves when bzip2 exited 0; rejects with a SourceError naming its complaint otherwise. */
  done: Promise<void>;
  kill(): void;
}

export function bunzip2(label: string): Bunzip2 {
  const child = spawn('bzip2', ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    if (stderr.length < 2000) stderr += s;
  });
  // EPIPE on stdin when bzip2 quits early (corrupt input): its exit status tells why.
  child.stdin.on('error', () => {});
  const done = new Promise<void>((ok, fail) => {
    child.once('error', (err: NodeJS.ErrnoException) => {
      fail(
        err.code === 'ENOENT'
          ? new SourceError('MISSING_TOOL', 'bzip2 not found: install it (Debian: apt-get install bzip2) to fetch .bz2 sources', false)
          : new SourceError('DECOMPRESS', `${label}: cannot run bzip2 (${err.message})`, true, { cause: err }),
      );
    });
    child.once('close', (code, signal) => {
      if (code === 0) ok();
      else fail(new SourceError('DECOMPRESS', `${label}: bzip2 -dc failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').pop() ?? ''}`, true));
    });
  });
  done.catch(() => {}); // observed by the caller; avoid an unhandled rejection if it never looks
  return {
    stream: Duplex.from({ writable: child.stdin, readable: child.stdout }),
    done,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      // 'close' waits for stdout to end; nobody reads it any more.
      child.stdout.destroy();
      child.stdin.destroy();
    },
  };
}
