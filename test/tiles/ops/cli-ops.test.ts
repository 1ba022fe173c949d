/**
 * `meteopunto tiles ls|verify|gc` through the built CLI (dist/cli/main.js)
 * on stores written by the real tile writer. Checksums are checked
 * independently with GNU `sha256sum -c`; bit rot is a byte flipped in a
 * chunk file on disk.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readSync, existsSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { REGULAR, analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const REPO = resolve(import.meta.dirname, '../../..');

function cli(root: string, args: string[]) {
  const r = spawnSync(process.execPath, ['dist/cli/main.js', 'tiles', ...args], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root }, timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const temp = (x: number, y: number, h: number) => 10 + 0.3 * y - 0.1 * x + h;

function nwpInput(times: Date[]) {
  return input('nwp', REGULAR, times, {
    temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, times, temp) },
    elevation: { units: 'm', precision: 0.1, static: true, values: analytic(REGULAR, [], (_x, y) => 100 * y) },
  });
}

describe('meteopunto tiles ls / verify / gc', () => {
  const root = tempRoot('ops');
  const times = hourlyTimes(3);
  let live = '';
  let old = '';
  beforeAll(async () => {
    old = (await writeProductVersion(root, nwpInput(times))).version;
    live = (await writeProductVersion(root, nwpInput(times))).version;
    for (const year of ['1950', '1951']) {
      const t = hourlyTimes(2, Date.UTC(Number(year), 0, 1));
      await writeProductVersion(root, {
        ...input('reanalysis', REGULAR, t, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, t, temp) } }),
        meta: { layout: 'periods', period: year },
      });
    }
  });

  it('ls --json lists products, live and old versions with sizes, and periods', () => {
    const r = cli(root, ['ls', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { product: string; periods: boolean; stores: { store: string; live: string; bytes: number; coverage: { from: string }; versions: { name: string; live: boolean; bytes: number }[] }[] }[];
    expect(j.map((p) => p.product)).toEqual(['nwp', 'reanalysis']);
    const nwp = j[0]!.stores[0]!;
    expect(nwp.live).toBe(live);
    expect(Object.fromEntries(nwp.versions.map((v) => [v.name, v.live]))).toEqual({ [old]: false, [live]: true });
    // Size on disk against du(1), an independent count (apparent bytes).
    const du = spawnSync('du', ['-sb', join(root, 'tiles', 'nwp', live)], { encoding: 'utf8' }).stdout.split('\t')[0];
    // du -sb counts directory entries' sizes too; ours counts file bytes only, so ours is smaller by at most 4 KiB per directory.
    const dirs = readdirSync(join(root, 'tiles', 'nwp', live), { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory()).length + 1;
    const v = nwp.versions.find((x) => x.name === live)!.bytes;
    expect(v).toBeLessThanOrEqual(Number(du));
    expect(Number(du) - v).toBeLessThanOrEqual(dirs * 4096);
    expect(nwp.coverage.from).toBe(times[0]!.toISOString());
    expect(j[1]!.periods).toBe(true);
    expect(j[1]!.stores.map((s) => s.store)).toEqual(['reanalysis/1950', 'reanalysis/1951']);
    const text = cli(root, ['ls']);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`live    ${live}`);
    expect(text.out).toContain('  1951 1951-01-01T00:00:00.000Z to 1951-01-01T01:00:00.000Z (2 times)');
  });

  it('publish writes SHA256SUMS that GNU sha256sum accepts, listing every chunk', () => {
    const dir = join(root, 'tiles', 'nwp', live);
    const r = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('temperature_2m/0.0.0: OK');
    expect(r.stdout).toContain('.zmetadata: OK');
  });

  it('verify passes on intact stores (a product, a period product) and reports progress as plain lines off a TTY', () => {
    const r = cli(root, ['verify', 'nwp']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^ok nwp ${live}: \\d+ files, \\d+ chunks, checksums match`));
    expect(r.err).toMatch(/^verify nwp: \d+\/\d+$/m);
    const p = cli(root, ['verify', 'reanalysis']);
    expect(p.code).toBe(0);
    expect(p.out).toContain('ok reanalysis/1950');
    expect(p.out).toContain('ok reanalysis/1951');
    expect(cli(root, ['verify', 'nwp', '--version', old]).code).toBe(0);
  });

  it('verify exits 1 naming a chunk with one flipped byte, and bad input is a usage error', () => {
    const chunk = join(root, 'tiles', 'nwp', old, 'temperature_2m', '0.0.0');
    const fd = openSync(chunk, 'r+');
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, 40);
    b[0] = b[0]! ^ 0x10;
    writeSync(fd, b, 0, 1, 40);
    closeSync(fd);
    const r = cli(root, ['verify', 'nwp', '--version', old]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAILED');
    expect(r.out).toContain('temperature_2m/0.0.0: checksum mismatch');
    expect(cli(root, ['verify', 'nwp', '--version', 'nope']).code).toBe(2);
    expect(cli(root, ['verify', 'absent']).code).toBe(1);
  });

  it('gc --dry-run names what gc then removes: a long-retired version and a dead ingest temp dir', () => {
    const dir = join(root, 'tiles', 'nwp');
    const hourAgo = new Date(Date.now() - 3_600_000);
    // The second publish marked the first retired; age the mark past the 10 min grace.
    expect(existsSync(join(dir, `${old}.retired`))).toBe(true);
    utimesSync(join(dir, `${old}.retired`), hourAgo, hourAgo);
    const tmp = join(dir, '.tmp-deadbeef0001');
    mkdirSync(tmp);
    writeFileSync(join(tmp, 'junk'), Buffer.alloc(5000));
    writeFileSync(join(tmp, '.owner.json'), JSON.stringify({ host: 'elsewhere', pid: 1, started: hourAgo.toISOString() }));
    utimesSync(join(tmp, '.owner.json'), new Date(0), new Date(0));
    const dry = cli(root, ['gc', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`would remove nwp/${old}`);
    expect(dry.out).toContain('would remove nwp/.tmp-deadbeef0001');
    expect(dry.out).not.toContain(live);
    expect(existsSync(join(dir, old))).toBe(true);
    const real = cli(root, ['gc']);
    expect(real.code).toBe(0);
    expect(real.out).toMatch(/freed \d+(\.\d)? KiB in 2 item\(s\)/);
    expect(existsSync(join(dir, old))).toBe(false);
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(join(dir, live))).toBe(true);
    expect(cli(root, ['verify', 'nwp']).code).toBe(0);
    expect(cli(root, ['gc']).out).toContain('nothing to remove');
  });
});
