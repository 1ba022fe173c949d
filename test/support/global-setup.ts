/**
 * Starts a private redis-server on a free port for the whole run unless
 * REDIS_URL is given, and exposes it to suites as REDIS_URL.
 */
import type { TestProject } from 'vitest/node';
import { startRedisServer, type RedisServerHandle } from './redis-server.js';

let redis: RedisServerHandle | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (!process.env.REDIS_URL) {
    redis = await startRedisServer();
    process.env.REDIS_URL = redis.url;
  }
  project.provide('redisUrl', process.env.REDIS_URL!);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
