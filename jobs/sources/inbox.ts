/**
 * Local inbox source: producers drop files into a directory (write under a
 * temporary name — dot-prefixed or ending in .part/.tmp — then rename), and
 * each file is ingested once. A job claims files by renaming them into
 * `processing/<job>/` — rename is atomic, so two workers never claim the same
 * file — and afterwards moves that folder to `done/<job>/` or
 * `failed/<job>/` (with REASON.txt). A retry of the same job finds its claim
 * still in `processing/<job>/` and ingests the same files.
 */
import { mkdir, readdir, rename, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const IGNORED = /^\.|\.(part|tmp|partial|crdownload)$/i;

/** Files ready for pickup: regular, not temporary, unchanged for `settleMs`. */
export async function pendingInboxFiles(dir: string, settleMs: number, now = Date.now()): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const ready: string[] = [];
  for (const e of entries) {
    if (!e.isFile() || IGNORED.test(e.name)) continue;
    const s = await stat(join(dir, e.name)).catch(() => undefined);
    if (s && now - s.mtimeMs >= settleMs) ready.push(e.name);
  }
  return ready.sort();
}

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name !== 'REASON.txt').map((e) => join(dir, e.name)).sort();
}

/**
 * Claims the inbox for job `key`: returns the files of an earlier claim by the
 * same job, else moves every ready file into `processing/<key>/`. May return
 * an empty list (nothing dropped, or another worker was faster).
 */
export async function claimInbox(dir: string, key: string, settleMs: number, now = Date.now()): Promise<string[]> {
  const claimDir = join(dir, 'processing', key);
  const earlier = await filesIn(claimDir);
  if (earlier.length > 0) return earlier;
  const names = await pendingInboxFiles(dir, settleMs, now);
  if (names.length === 0) return [];
  await mkdir(claimDir, { recursive: true });
  for (const name of names) {
    try {
      await rename(join(dir, name), join(claimDir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // claimed by another worker meanwhile
    }
  }
  const claimed = await filesIn(claimDir);
  if (claimed.length === 0) await rmdir(claimDir).catch(() => {});
  return claimed;
}

/** Moves the claim of job `key` to done/ or failed/ (with the reason), never overwriting an earlier folder. */
export async function settleInbox(dir: string, key: string, outcome: 'done' | 'failed', reason?: string): Promise<string | undefined> {
  const claimDir = join(dir, 'processing', key);
  if ((await filesIn(claimDir)).length === 0) return undefined;
  if (outcome === 'failed') await writeFile(join(claimDir, 'REASON.txt'), `${reason ?? 'failed'}\n`);
  await mkdir(join(dir, outcome), { recursive: true });
  for (let i = 0; ; i++) {
    const target = join(dir, outcome, i === 0 ? key : `${key}.${i}`);
    try {
      await rename(claimDir, target);
      return target;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
  }
}
