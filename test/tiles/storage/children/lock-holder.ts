/**
 * Child of redis-lock.test.ts: takes the publish lock `<prefix>:tiles-lock:<name>`
 * with the TTL given, prints 'held', and keeps it (renewing) until killed.
 * argv: redis URL, key prefix, lock name, TTL ms.
 */
import { redisLock } from '../../../../tiles/storage/redis-lock.js';

const [url, prefix, name, ttl] = process.argv.slice(2);
await redisLock(url!, prefix!, { ttlMs: Number(ttl) })(name!);
process.stdout.write('held\n');
setInterval(() => undefined, 60_000);
