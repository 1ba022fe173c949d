/** Inbox source: files dropped are claimed once (atomic rename), then filed under done/ or failed/. */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { claimInbox, pendingInboxFiles, settleInbox } from '../../jobs/sources/inbox.js';

describe('inbox source', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mp-inbox-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });
  const drop = (name: string, ageS = 60) => {
    writeFileSync(join(dir, name), name);
    const t = Date.now() / 1000 - ageS;
    utimesSync(join(dir, name), t, t);
  };

  it('ignores temporary names, folders and files still being written', async () => {
    drop('a.grib2');
    drop('.b.grib2');
    drop('c.grib2.part');
    drop('d.nc.tmp');
    drop('fresh.grib2', 0);
    mkdirSync(join(dir, 'sub'));
    expect(await pendingInboxFiles(dir, 5000)).toEqual(['a.grib2']);
    expect(await pendingInboxFiles(join(dir, 'missing'), 0)).toEqual([]);
  });

  it('two concurrent claims never get the same file, and together get each file once', async () => {
    for (let i = 0; i < 40; i++) drop(`f${String(i).padStart(2, '0')}.grib`);
    const [a, b] = await Promise.all([claimInbox(dir, 'job-a', 0), claimInbox(dir, 'job-b', 0)]);
    const names = [...a, ...b].map((p) => p.split('/').pop()!);
    expect(names.length).toBe(40);
    expect(new Set(names).size).toBe(40);
    expect(readdirSync(dir).sort()).toEqual(['processing']);
  });

  it('a retry of the same job gets its earlier claim back; settle files it under done/ or failed/ with the reason', async () => {
    drop('one.grib');
    const first = await claimInbox(dir, 'nwp@inbox-1', 0);
    expect(first).toEqual([join(dir, 'processing', 'nwp@inbox-1', 'one.grib')]);
    drop('two.grib'); // arrives later: belongs to the next job, not to this retry
    expect(await claimInbox(dir, 'nwp@inbox-1', 0)).toEqual(first);
    expect(await settleInbox(dir, 'nwp@inbox-1', 'failed', 'one.grib: not a GRIB file')).toBe(join(dir, 'failed', 'nwp@inbox-1'));
    expect(readFileSync(join(dir, 'failed', 'nwp@inbox-1', 'REASON.txt'), 'utf8')).toBe('one.grib: not a GRIB file\n');
    const second = await claimInbox(dir, 'nwp@inbox-2', 0);
    expect(second.map((p) => p.split('/').pop())).toEqual(['two.grib']);
    await settleInbox(dir, 'nwp@inbox-2', 'done');
    expect(readdirSync(join(dir, 'done', 'nwp@inbox-2'))).toEqual(['two.grib']);
    expect(readdirSync(join(dir, 'processing'))).toEqual([]);
    expect(await claimInbox(dir, 'nwp@inbox-3', 0)).toEqual([]);
  });
});
