/**
 * Records the names of the commands an ioredis client sends, to count
 * round trips (one script call per quota decision, no read per cached key).
 */
import type { Redis } from 'ioredis';

/** From now on, the lower-case name of every command `client` sends is pushed to `sent`; `stop()` puts its sendCommand back. */
export function recordCommands(client: Redis): { sent: string[]; stop(): void } {
  const sent: string[] = [];
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    sent.push(args[0].name);
    return send(...args);
  }) as Redis['sendCommand'];
  return { sent, stop: () => void (client.sendCommand = send) };
}
