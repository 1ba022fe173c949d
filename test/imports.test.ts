/**
 * The source folders' import rules (.dependency-cruiser.cjs): no import
 * circle across files, and each layer imports only from below it. Run by
 * dependency-cruiser over the TypeScript sources, type-only imports included;
 * a second run over a folder with a planted circle and a planted upward
 * import shows the rules can fail.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const CRUISER = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const SOURCES = ['config', 'geo', 'science', 'tiles', 'ingest', 'api', 'jobs', 'cli', 'bench'];

function cruise(cwd: string, dirs: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CRUISER, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err', ...dirs], { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('import rules', () => {
  const planted = mkdtempSync(join(tmpdir(), 'mp-imports-'));
  afterAll(() => rmSync(planted, { recursive: true, force: true }));

  it('hold over the sources: no circle, every layer imports from below', () => {
    const r = cruise(ROOT, SOURCES);
    expect(r.out).not.toMatch(/error/);
    expect(r.status, r.out).toBe(0);
  });

  it('catch a planted circle and a planted upward import', () => {
    for (const d of ['tiles', 'api']) mkdirSync(join(planted, d));
    writeFileSync(join(planted, 'tiles', 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(join(planted, 'tiles', 'b.ts'), "import type { a } from './a.js';\nexport const b: typeof a | null = null;\n");
    writeFileSync(join(planted, 'tiles', 'c.ts'), "import { route } from '../api/route.js';\nexport const c = route;\n");
    writeFileSync(join(planted, 'api', 'route.ts'), 'export const route = 1;\n');
    writeFileSync(join(planted, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
    const r = cruise(planted, ['tiles', 'api']);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/no-circular: tiles\/a\.ts/);
    expect(r.out).toMatch(/tiles-below-ingest: tiles\/c\.ts → api\/route\.ts/);
  });
});
