/** Start and stop real redis-server processes for tests (quotas, queues, failover). */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerHandle {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

function redisBinary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('redis-server not found: install it (Debian: apt-get install redis-server) or set REDIS_URL to a running Redis');
  }
}

export async function startRedisServer(port?: number): Promise<RedisServerHandle> {
  const bin = redisBinary();
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'mp-redis-'));
  const child = spawn(bin, ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('redis-server did not start within 10 s')), 10_000);
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        ok();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`redis-server exited with ${code}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
