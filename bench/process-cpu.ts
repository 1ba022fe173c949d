/**
 * Another process's CPU time, read from /proc/<pid>/stat: the cold phase's
 * `meteopunto serve` is a plain child (no IPC channel to ask it, as
 * ./servers.ts asks its own), and its CPU per request is the figure that
 * holds on a loaded machine, where requests/s move with the neighbours.
 */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks (100 on every Linux ABI Node runs on). */
const TICKS_PER_SECOND = 100;

export interface ProcessCpu {
  /** User and system CPU time, µs (10 ms resolution). */
  user: number;
  system: number;
}

/** The fields of a /proc/<pid>/stat line after the command name (which may hold spaces and parentheses). */
export function parseProcStat(line: string): ProcessCpu {
  const rest = line.slice(line.lastIndexOf(')') + 2).split(' ');
  // proc(5): utime and stime are fields 14 and 15; the rest starts at field 3 (state).
  const ticks = (field: number) => Number(rest[field - 3]);
  const us = 1e6 / TICKS_PER_SECOND;
  return { user: ticks(14) * us, system: ticks(15) * us };
}

/** CPU time of process `pid` so far, or undefined where /proc is not (macOS) or the process is gone. */
export function processCpu(pid: number | undefined): ProcessCpu | undefined {
  if (pid === undefined) return undefined;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** `r`'s CPU per answered request between two readings (undefined without both). */
export function cpuPerRequest(before: ProcessCpu | undefined, after: ProcessCpu | undefined, answered: number): { cpuUsPerRequest: number; sysUsPerRequest: number } | undefined {
  if (!before || !after) return undefined;
  const n = Math.max(1, answered);
  return { cpuUsPerRequest: (after.user + after.system - before.user - before.system) / n, sysUsPerRequest: (after.system - before.system) / n };
}
