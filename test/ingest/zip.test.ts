/**
 * Zipped inputs (ingest/zip.ts), with archives written by an independent
 * writer (Python's zipfile): the real CAMS Europe files come out byte for
 * byte; directories are skipped; member paths climbing out, duplicate
 * names, oversized members and broken archives are refused by name. Then
 * `meteopunto ingest cams <file.zip>` (the built CLI) ingests the netcdf_zip
 * the ADS delivers and answers netCDF4-python's bilinear values, leaving no
 * unpacked copy behind.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { ReadError } from '../../ingest/field.js';
import { expandZipInputs, isZip, unzipFile } from '../../ingest/zip.js';
import { dataFile, describeShared } from '../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../..');
const POLLEN = () => dataFile('cams-europe-pollen-jaen/2024AnalisisPolem.nc');
const CONTAM = () => dataFile('cams-europe-pollen-jaen/2024AnalisisContam.nc');
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** A ZIP written by Python's zipfile: [archive name, file on disk or literal text]. */
function pyZip(out: string, members: [string, string][]): string {
  const script = 'import sys, json, zipfile, os\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:\n'
    + '    for name, src in json.loads(sys.argv[2]):\n'
    + '        z.write(src, name) if os.path.isfile(src) else z.writestr(name, src)\n';
  execFileSync('/usr/bin/python3', ['-c', script, out, JSON.stringify(members)]);
  return out;
}

describeShared('ZIP inputs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mp-zip-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('the real CAMS files come out of a netcdf_zip byte for byte, in archive order', async () => {
    const zip = pyZip(join(dir, 'cams.zip'), [['2024AnalisisPolem.nc', POLLEN()], ['2024AnalisisContam.nc', CONTAM()]]);
    expect(await isZip(zip)).toBe(true);
    expect(await isZip(POLLEN())).toBe(false);
    const out = await unzipFile(zip, join(dir, 'out'));
    expect(out.map((p) => basename(p))).toEqual(['2024AnalisisPolem.nc', '2024AnalisisContam.nc']);
    expect(out.map(sha)).toEqual([sha(POLLEN()), sha(CONTAM())]);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['2024AnalisisContam.nc', '2024AnalisisPolem.nc']);
  });

  it('a member path climbing out refuses the archive; folders are skipped; duplicate base names are refused', async () => {
    const evil = pyZip(join(dir, 'evil.zip'), [['ok.nc', 'a'], ['../../evil.nc', 'b']]);
    await expect(unzipFile(evil, join(dir, 'out', 'x'))).rejects.toThrow(/evil.zip: not a readable ZIP archive \(invalid relative path: ..\/..\/evil.nc\)/);
    expect(existsSync(join(dir, 'evil.nc'))).toBe(false);
    const odd = pyZip(join(dir, 'odd.zip'), [['folder/', ''], ['deep/er/ok.nc', 'b']]);
    expect(await unzipFile(odd, join(dir, 'odd'))).toEqual([join(dir, 'odd', 'ok.nc')]);
    const dup = pyZip(join(dir, 'dup.zip'), [['a/x.nc', 'a'], ['b/x.nc', 'b']]);
    await expect(unzipFile(dup, join(dir, 'dup'))).rejects.toThrow(/dup.zip: two members are named x.nc/);
  });

  it('a broken archive, an empty one or a member over the limit is a ReadError naming the archive', async () => {
    const zip = pyZip(join(dir, 'cams.zip'), [['p.nc', POLLEN()]]);
    const cut = join(dir, 'cut.zip');
    writeFileSync(cut, readFileSync(zip).subarray(0, 5000));
    const broken = await unzipFile(cut, join(dir, 'cut')).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(ReadError);
    expect((broken as Error).message).toMatch(/cut.zip: not a readable ZIP archive/);
    await expect(unzipFile(pyZip(join(dir, 'none.zip'), [['d/', '']]), join(dir, 'none'))).rejects.toThrow(/none.zip: ZIP archive with no file in it/);
    await expect(unzipFile(zip, join(dir, 'big'), { maxMemberBytes: 1000 })).rejects.toThrow(/p.nc\): member of \d+ bytes, over the limit of 1000/);
  });

  it('expandZipInputs replaces each ZIP by its members and cleans up after itself', async () => {
    const zip = pyZip(join(dir, 'cams.zip'), [['p.nc', POLLEN()]]);
    const x = await expandZipInputs([CONTAM(), zip]);
    expect(x.files[0]).toBe(CONTAM());
    expect(sha(x.files[1]!)).toBe(sha(POLLEN()));
    await x.cleanup();
    expect(existsSync(x.files[1]!)).toBe(false);
  });
});

describeShared('meteopunto ingest cams <file.zip>', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-zip-cli-'));
  const tmp = mkdtempSync(join(tmpdir(), 'mp-zip-tmp-'));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });

  const cli = (args: string[]) =>
    spawnSync(process.execPath, [join(REPO, 'dist/cli/main.js'), ...args], {
      encoding: 'utf8', timeout: 120_000, env: { ...process.env, METEOPUNTO_DATA: root, METEOPUNTO_DOMAIN: '36,44,-10,4.5', TMPDIR: tmp },
    });

  it('ingests the members, answers netCDF4-python’s bilinear value, leaves no unpacked copy', () => {
    const zip = pyZip(join(root, 'cams-europe-20240510.zip'), [['2024AnalisisPolem.nc', POLLEN()], ['2024AnalisisContam.nc', CONTAM()]]);
    const r = cli(['ingest', 'cams', zip, '--quiet', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { files: string[]; variables: string[] };
    expect(report.files).toEqual(['2024AnalisisPolem.nc', '2024AnalisisContam.nc']);
    expect(report.variables).toEqual(expect.arrayContaining(['olive_pollen', 'ozone', 'pm10']));
    expect(readdirSync(tmp)).toEqual([]);

    const c = { lat: 38.12, lon: -2.8, time: '2024-05-10T13:30:00Z' };
    const p = cli(['tiles', 'point', 'cams', '--lat', String(c.lat), `--lon=${c.lon}`, '--time', c.time, '--json']);
    expect(p.status).toBe(0);
    const got = (JSON.parse(p.stdout) as { values: Record<string, number> }).values;
    const want = JSON.parse(
      execFileSync('/usr/bin/python3', [join(REPO, 'test/ingest/products/fixtures/cams_bilinear.py'), JSON.stringify({ file: CONTAM(), queries: [{ var: 'o3_conc', ...c }, { var: 'pm10_conc', ...c }] })], { encoding: 'utf8' }),
    ) as number[];
    expect(Math.abs(got.ozone! - want[0]!)).toBeLessThanOrEqual(0.01 * want[0]!);
    expect(Math.abs(got.pm10! - want[1]!)).toBeLessThanOrEqual(0.01 * want[1]!);
  });
});
