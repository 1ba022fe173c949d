/**
 * The manual's CLI pages cannot drift from the CLI: every command the
 * command table of docs/operations.md shows (alternatives `a|b` expanded)
 * answers `--help`, a subcommand with its own usage line, and names every
 * option the table shows for it; every command `meteopunto --help` lists has
 * a row; the tiles commands of docs/operators.md likewise.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

interface DocCommand { path: string; options: string[]; page: string }

/** `meteopunto tiles ls\|verify [--json]` → tiles ls, tiles verify, each with the options shown. */
function expand(usage: string, page: string): DocCommand[] {
  const words = usage.replace(/\\\|/g, '|').replace(/^meteopunto /, '').split(' ');
  const path: string[] = [];
  for (const w of words) {
    if (!/^[a-z][a-z|-]*$/.test(w)) break;
    path.push(w);
  }
  const options = [...usage.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]);
  const last = path.pop()!;
  return last.split('|').map((alt) => ({ path: [...path, alt].join(' '), options, page }));
}

const OPERATIONS = read('docs/operations.md');
const TABLE = OPERATIONS.slice(OPERATIONS.indexOf('## CLI'), OPERATIONS.indexOf('\n## ', OPERATIONS.indexOf('## CLI') + 1));
const DOCUMENTED: DocCommand[] = [
  ...TABLE.split('\n').flatMap((l) => {
    const m = /^\| `(meteopunto [^`]+)` \|/.exec(l);
    return m ? expand(m[1]!, 'operations.md') : [];
  }),
  ...read('docs/operators.md').split('\n').flatMap((l) => {
    const row = /^\| `(tiles [a-z]+ [^`]*)` \|/.exec(l);
    const block = /^ {4}meteopunto (tiles [^\n]+)$/.exec(l);
    const usage = row?.[1] ?? block?.[1];
    return usage ? expand(usage, 'operators.md') : [];
  }),
];

describe('the CLI pages of the manual', () => {
  const data = mkdtempSync(join(tmpdir(), 'mp-cli-docs-'));
  afterAll(() => rmSync(data, { recursive: true, force: true }));
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', METEOPUNTO_DATA: data }, encoding: 'utf8', timeout: 20_000 });

  it('the tables show commands', () => {
    expect(DOCUMENTED.length).toBeGreaterThan(20);
    expect(DOCUMENTED.map((d) => d.path)).toContain('tiles render');
  });

  it.each(DOCUMENTED.map((d) => [`${d.page}: ${d.path}`, d] as const))('%s: --help answers, with every option the manual shows', (_title, d) => {
    const r = run([...d.path.split(' '), '--help']);
    expect(r.status, r.stderr).toBe(0);
    if (d.path.includes(' ')) expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^usage: meteopunto ${d.path}\\b`));
    for (const o of d.options) expect(r.stdout, `${d.path} ${o}`).toContain(o);
  });

  it('every command of `meteopunto --help` has a row in the command table of docs/operations.md', () => {
    const listed = [...run(['--help']).stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(5);
    const rows = new Set(DOCUMENTED.filter((d) => d.page === 'operations.md').map((d) => d.path.split(' ')[0]));
    expect(listed.filter((c) => !rows.has(c))).toEqual([]);
  });
});
