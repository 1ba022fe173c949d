/**
 * The last step of every file a source writes: flush `<name>.part` to disk,
 * then rename it to its final name. A file under its final name is
 * therefore complete, even after a crash or a power cut, and a later
 * attempt may reuse it.
 */
import { open, rename } from 'node:fs/promises';

export async function commitFile(part: string, dest: string): Promise<void> {
  const fh = await open(part, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(part, dest);
}
