/**
 * README.md and docs/*.md point only at what the repository has: every
 * relative link's file (and its #anchor, as GitHub makes heading anchors),
 * and every source path named in backquotes (`api/…/x.ts`), exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
/** Top-level folders of the repository whose files the docs name in backquotes. */
/** Paths of a worked example, not of the repository: docs/products.md adds a `waves` field group. */
const EXAMPLE = /^api\/fields\/waves\//;
const SOURCE = /^(?:api|bench|cli|config|geo|ingest|jobs|science|tiles|test|scripts|docs|deploy)\/[\w./@-]+\.(?:ts|mjs|cjs|js|py|sh|md|json)$/;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of md.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const h = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const s = slug(h[1]!);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  }
  return out;
}

/** The text outside fenced code blocks. */
const prose = (md: string) => md.split(/^```.*$/m).filter((_, i) => i % 2 === 0).join('\n');

it('every relative link of README.md and docs/ names a file and heading that exist', () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const md = readFileSync(join(ROOT, page), 'utf8');
    for (const m of prose(md).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURI(path));
      if (!file.startsWith(ROOT + '/') || !existsSync(file)) broken.push(`${page}: ${target} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${page}: ${target} (no such heading in ${relative(ROOT, file)})`);
    }
  }
  expect(broken).toEqual([]);
});

it('every source path README.md and docs/ name in backquotes exists', () => {
  const missing: string[] = [];
  for (const page of PAGES) {
    for (const m of prose(readFileSync(join(ROOT, page), 'utf8')).matchAll(/`([^`\s]+)`/g)) {
      const path = m[1]!.replace(/[:,]$/, '');
      if (SOURCE.test(path) && !EXAMPLE.test(path) && !existsSync(join(ROOT, path))) missing.push(`${page}: ${path}`);
    }
  }
  expect(missing).toEqual([]);
});

it('finds what it checks (links and paths in the pages)', () => {
  const all = PAGES.map((p) => readFileSync(join(ROOT, p), 'utf8')).join('\n');
  expect([...all.matchAll(/\]\((?![a-z]+:)[^)\s]+\)/gi)].length).toBeGreaterThan(50);
  expect([...all.matchAll(/`([^`\s]+)`/g)].filter((m) => SOURCE.test(m[1]!)).length).toBeGreaterThan(50);
});
