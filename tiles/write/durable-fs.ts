/**
 * Durable writes for atomic publish: a file is fsynced before the rename that
 * makes it visible, and a directory is fsynced after entries change in it,
 * so a power loss cannot leave a renamed-but-empty file behind.
 */
import { open, mkdir } from 'node:fs/promises';

/** Write `data` to `path` and fsync it before returning. */
export async function writeFileSynced(path: string, data: Uint8Array | string): Promise<void> {
  const fh = await open(path, 'w');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** fsync a directory so that renames and new entries in it are durable. */
export async function fsyncDir(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function mkdirp(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
}

/** Run `task` over `items` with at most `limit` in flight. */
export async function forEachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  });
  await Promise.all(lanes);
}
