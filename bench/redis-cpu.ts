/**
 * The Redis server's own CPU time over the HTTP bench's windows, warm-ups included (INFO cpu:
 * used_cpu_user + used_cpu_sys), per quota decision. Redis runs on the same
 * cores as the server and the load generator, so what it spends on each
 * decision is taken from them: on a 2-core machine it is part of what the
 * ratios to the bare route measure. Other clients of the same Redis count
 * too (run the bench on a quiet Redis).
 */
import { Redis } from 'ioredis';

/** Redis CPU time summed over the windows measured, and the decisions (requests answered) in them. */
export interface RedisCpu {
  us: number;
  decisions: number;
}

export class RedisCpuMeter {
  private readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectionName: 'meteopunto-bench' });
  }

  /** Redis's CPU time since it started, µs. */
  async nowUs(): Promise<number> {
    if (this.client.status === 'wait') await this.client.connect();
    const info = await this.client.info('cpu');
    const field = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? NaN);
    return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
  }

  /** Runs `window` and adds Redis's CPU time over it and the decisions it reports to `into`. */
  async around<R extends { requests: number; errors: number; warmupRequests?: number }>(into: RedisCpu, window: () => Promise<R>): Promise<R> {
    const before = await this.nowUs();
    const r = await window();
    into.us += (await this.nowUs()) - before;
    into.decisions += r.requests + r.errors + (r.warmupRequests ?? 0);
    return r;
  }

  close(): void {
    this.client.disconnect();
  }
}
