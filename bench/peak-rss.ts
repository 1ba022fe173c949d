/**
 * The largest resident set this process has had, bytes. Linux's VmHWM (in
 * /proc/self/status) starts afresh at exec; getrusage's maxRSS does not: a
 * server forked from the bench's parent would report the parent's resident
 * set at the fork (about 1.1 GB of generated fields) as its own peak. Other
 * systems: maxRSS, an upper bound.
 */
import { readFileSync } from 'node:fs';

export function peakRssBytes(): number {
  try {
    const hwm = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS * 1024;
}
