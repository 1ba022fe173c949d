/** Fresh data directories for tile tests, removed after the test file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

export function tempRoot(tag: string): string {
  const r = mkdtempSync(join(tmpdir(), `mp-tiles-${tag}-`));
  roots.push(r);
  return r;
}
