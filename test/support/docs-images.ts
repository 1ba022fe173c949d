/**
 * Where tests write the screenshots the manual shows. By default a temp
 * directory, so that `npm test` leaves the checkout as it found it; with
 * DOCS_IMAGES=1 (`npm run docs:images`) the manual's own docs/images/, to
 * regenerate them from what the tests checked.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const DOCS_IMAGES_DIR = resolve(import.meta.dirname, '../../docs/images');
export const writingDocsImages = process.env.DOCS_IMAGES === '1';

let dir: string | undefined;
/** The directory screenshots go to in this run (created once). */
export function imagesDir(): string {
  if (dir === undefined) {
    dir = writingDocsImages ? DOCS_IMAGES_DIR : mkdtempSync(join(tmpdir(), 'mp-images-'));
    mkdirSync(dir, { recursive: true });
  }
  return dir;
}
