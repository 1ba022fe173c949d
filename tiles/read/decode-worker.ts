/**
 * A decode thread's task (./decode-pool.ts): read one block and hand its
 * buffer over without a copy.
 */
import { Piscina } from 'piscina';
import { readBlock, type BlockRequest } from './block-read.js';

export default async function decodeBlock(req: BlockRequest): Promise<unknown> {
  return Piscina.move(await readBlock(req));
}
