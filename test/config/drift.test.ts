/**
 * The configuration cannot drift: the table of docs/configuration.md, the
 * declared list (config/env-variables.ts) and the variables the source reads are
 * the same set, and nothing outside config/ touches process.env.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIABLES } from '../../config/env-variables.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE_DIRS = ['api', 'bench', 'cli', 'config', 'geo', 'ingest', 'jobs', 'science', 'tiles'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.(ts|mjs|py)$/.test(name) ? [p] : [];
  });
}

const files = SOURCE_DIRS.flatMap((d) => sourceFiles(join(ROOT, d))).map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));

/** Rows of the docs table: variable → its aliases and default as written. */
function docTable(): Map<string, { aliases: string[]; default: string }> {
  const md = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const rows = new Map<string, { aliases: string[]; default: string }>();
  for (const line of md.split('\n')) {
    const m = /^\| `([A-Z][A-Z0-9_]+)` \| ([^|]*) \| ([^|]*) \|/.exec(line);
    if (!m) continue;
    const aliases = [...m[2]!.matchAll(/`([A-Z0-9_]+)`/g)].map((a) => a[1]!);
    const def = m[3]!.trim() === '(unset)' ? '' : m[3]!.trim().replace(/^`|`$/g, '');
    rows.set(m[1]!, { aliases, default: def });
  }
  return rows;
}

describe('configuration drift', () => {
  it('docs/configuration.md lists exactly the declared variables, with their aliases and defaults', () => {
    const rows = docTable();
    expect([...rows.keys()].sort()).toEqual(VARIABLES.map((v) => v.name).sort());
    for (const v of VARIABLES) {
      expect(rows.get(v.name)!.aliases, v.name).toEqual([...(v.aliases ?? [])]);
      expect(rows.get(v.name)!.default, v.name).toBe(v.default);
    }
  });

  it('every variable name the source mentions is declared (canonical or alias)', () => {
    const declared = new Set(VARIABLES.flatMap((v) => [v.name, ...(v.aliases ?? [])]));
    const mentioned = new Map<string, string>();
    for (const f of files) {
      // Literal names of our own prefix, and conventional names read through setting()/env.X.
      for (const m of f.text.matchAll(/\b((?:METEOPUNTO|MP)_[A-Z0-9_]*[A-Z0-9])\b/g)) mentioned.set(m[1]!, f.path);
      for (const m of f.text.matchAll(/\b(?:setting|settingFrom|integerSetting)\([^,]+, '([A-Z0-9_]+)'/g)) mentioned.set(m[1]!, f.path);
      for (const m of f.text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) mentioned.set(m[1]!, f.path);
    }
    // The access schema's naming rule, as its own comment spells it.
    mentioned.delete('METEOPUNTO_A_B_C');
    const undeclared = [...mentioned].filter(([name]) => !declared.has(name)).map(([n, p]) => `${n} (${p})`);
    expect(undeclared).toEqual([]);
    // And the other way: each declared variable is read somewhere outside the list itself.
    const unused = VARIABLES.filter((v) => !files.some((f) => f.path !== 'config/env-variables.ts' && f.text.includes(v.name))).map((v) => v.name);
    // The quota variables are read by a name the access schema builds (api/access/config.ts).
    expect(unused.filter((n) => !/^METEOPUNTO_(QUOTA|FLOOD|KEYS)_/.test(n))).toEqual([]);
  });

  it('only config/process-env.ts touches process.env', () => {
    const touching = files.filter((f) => /process\.env\b/.test(f.text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''))).map((f) => f.path);
    expect(touching).toEqual(['config/process-env.ts']);
  });
});
