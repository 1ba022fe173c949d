/** `meteopunto keys ...` in both modes, through run(argv, env). */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from './fixtures/keys-cli.js';

afterEach(() => vi.restoreAllMocks());

describe.each([
  ['embedded', () => ({ METEOPUNTO_DATA: mkdtempSync(join(tmpdir(), 'mp-cli-')) })],
  ['Redis', () => ({ METEOPUNTO_DATA: mkdtempSync(join(tmpdir(), 'mp-cli-')), REDIS_URL: process.env.REDIS_URL })],
])('keys CLI (%s)', (mode, makeEnv) => {
  it('creates, lists, shows, changes the plan of and revokes a key', async () => {
    const env = makeEnv();
    const created = await keys(['create', '--plan', 'developer', '--name', 'Meteo Rimini'], env);
    expect(created.code).toBe(0);
    const key = /key:\s+(mp_\w+)/.exec(created.out)![1]!;
    const prefix = /prefix:\s+(\w+)/.exec(created.out)![1]!;
    expect(key.slice(3, 11)).toBe(prefix);
    expect(created.out).toMatch(/plan:\s+Developer/);
    expect(created.out).toMatch(/kind:\s+api/);

    const list = await keys(['list'], env);
    expect(list.code).toBe(0);
    const row = list.out.split('\n').find((l) => l.startsWith(prefix))!;
    expect(row).toMatch(new RegExp(`^${prefix}\\s+developer\\s+api\\s+Meteo Rimini\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$`));
    expect(list.out).not.toContain(key);
    expect(list.out).not.toContain(createHash('sha256').update(key).digest('hex'));

    const show = await keys(['show', prefix], env);
    expect(show.code).toBe(0);
    expect(show.out).toMatch(/plan:\s+Developer \(10000\/day, 60\/minute\)/);
    expect(show.out).toMatch(/status:\s+active/);
    if (mode === 'Redis') expect(show.out).toMatch(/today:\s+0 used, 10000 remaining \(UTC day/);
    else expect(show.out).toMatch(/today:\s+not available in embedded mode/);
    expect(show.out).not.toContain(key);

    expect((await keys(['set-plan', prefix, 'Business'], env)).out).toBe(`key ${prefix}: plan Developer -> Business`);
    expect((await keys(['revoke', prefix], env)).out).toMatch(new RegExp(`^revoked ${prefix} at \\d{4}-`));
    const after = await keys(['list'], env);
    expect(after.out.split('\n').find((l) => l.startsWith(prefix))).toMatch(/business\s+api\s+Meteo Rimini\s+\S+ \S+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await keys(['show', prefix], env)).out).toMatch(/status:\s+revoked \d{4}-/);
  });

  it('creates widget keys with normalised origins', async () => {
    const env = makeEnv();
    const r = await keys(['create', '--plan', 'free', '--widget', '--origins', 'https://Example.com/page, http://localhost:8080'], env);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/kind:\s+widget \(origins: https:\/\/example\.com, http:\/\/localhost:8080\)/);
  });

  it('explains mistakes with exit code 2 (usage) or 1 (unknown key)', async () => {
    const env = makeEnv();
    const cases: Array<[string[], number, RegExp]> = [
      [['create', '--plan', 'gold'], 2, /unknown plan 'gold' \(allowed: free, developer, business\)/],
      [['create'], 2, /--plan is required/],
      [['create', '--plan', 'free', '--origins', 'https://a.example'], 2, /--origins applies to widget keys/],
      [['create', '--plan', 'free', '--widget', '--origins', 'ftp://x'], 2, /not an http\(s\) origin/],
      [['create', '--plan', 'free', '--colour', 'red'], 2, /colour/],
      [['show'], 2, /expected <prefix>/],
      [['show', 'nope'], 2, /'nope' is not a key prefix/],
      [['show', 'Zz9Zz9Zz'], 1, /no key with prefix 'Zz9Zz9Zz'/],
      [['revoke', 'Zz9Zz9Zz'], 1, /no key with prefix 'Zz9Zz9Zz'/],
      [['set-plan', 'Zz9Zz9Zz', 'free'], 1, /no key with prefix 'Zz9Zz9Zz'/],
      [['set-plan', 'Zz9Zz9Zz', 'platinum'], 2, /unknown plan 'platinum'/],
      [['frobnicate'], 2, /unknown command 'frobnicate'/],
    ];
    for (const [argv, code, msg] of cases) {
      const r = await keys(argv, env);
      expect(r.code, argv.join(' ')).toBe(code);
      expect(r.err, argv.join(' ')).toMatch(msg);
    }
  });
});

it('stores keys.json under $METEOPUNTO_DATA without the key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-cli-'));
  const r = await keys(['create', '--plan', 'free'], { METEOPUNTO_DATA: dir });
  const key = /key:\s+(mp_\w+)/.exec(r.out)![1]!;
  const text = readFileSync(join(dir, 'keys.json'), 'utf8');
  expect(text).toContain(createHash('sha256').update(key).digest('hex'));
  expect(text).not.toContain(key.slice(3));
});

it('names an unreachable Redis', async () => {
  const r = await keys(['list'], { REDIS_URL: 'redis://127.0.0.1:1' });
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/REDIS_URL redis:\/\/127\.0\.0\.1:1\/?: cannot connect \(connect ECONNREFUSED/);
});
