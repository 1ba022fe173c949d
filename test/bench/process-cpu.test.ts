/**
 * The cold phase's CPU reading of the `meteopunto serve` child: /proc/<pid>/stat
 * fields in USER_HZ ticks, a command name that holds spaces and parentheses,
 * and a reading of a live process against what that process says of itself.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuPerRequest, parseProcStat, processCpu } from '../../bench/process-cpu.js';

describe('parseProcStat', () => {
  it('reads utime and stime (fields 14 and 15, ticks of 10 ms) after a command name with spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    const line = '4242 (node (a) b) S 1 4242 4242 0 -1 4194560 900 0 3 0 250 17 0 0 20 0 11 0 123 456 789';
    expect(parseProcStat(line)).toEqual({ user: 2_500_000, system: 170_000 });
  });
});

describe('processCpu', () => {
  it('is undefined for no process and for a pid that does not exist', () => {
    expect(processCpu(undefined)).toBeUndefined();
    expect(processCpu(2 ** 30)).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')("matches a busy child's own process.cpuUsage to within the ticks' resolution", async () => {
    // The child spins until it has used 300 ms of CPU (whatever the machine's load), reports its own usage, then waits to be read from outside.
    const src = "let u=process.cpuUsage();while(u.user+u.system<300000)u=process.cpuUsage();console.log(u.user+u.system);setTimeout(()=>{},60000)";
    const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const own = await new Promise<number>((ok) => child.stdout!.once('data', (d: Buffer) => ok(Number(d.toString().trim()))));
      const seen = processCpu(child.pid)!;
      expect(own).toBeGreaterThan(250_000);
      // Ticks of 10 ms on each of user and system, and the printing itself in between.
      expect(Math.abs(seen.user + seen.system - own)).toBeLessThan(40_000);
    } finally {
      child.kill();
    }
  });
});

describe('cpuPerRequest', () => {
  it('divides the CPU between two readings by the answers, and is undefined without both readings', () => {
    expect(cpuPerRequest({ user: 1_000_000, system: 200_000 }, { user: 1_900_000, system: 500_000 }, 10_000)).toEqual({ cpuUsPerRequest: 120, sysUsPerRequest: 30 });
    expect(cpuPerRequest(undefined, { user: 1, system: 1 }, 10)).toBeUndefined();
  });
});
