/**
 * Check `monotone-steps`: within each source series (one variable, level and
 * run of one file) the valid times strictly increase in file order. A step
 * that repeats or goes back means a damaged time coordinate; assembling the
 * time axis would sort it silently and let one copy overwrite the other.
 */
import { basename } from 'node:path';
import type { Finding, GateCheck, GateContext } from './check.js';

export const monotoneSteps: GateCheck = {
  name: 'monotone-steps',
  run(ctx: GateContext): Finding[] {
    const used = new Set(ctx.fields.map((f) => `${f.file}|${f.source}`));
    const out: Finding[] = [];
    for (const s of ctx.series) {
      if (!used.has(`${s.file}|${s.name}`)) continue;
      const k = s.times.findIndex((t, i) => i > 0 && !(t > s.times[i - 1]!));
      if (k < 0) continue;
      const prev = new Date(s.times[k - 1]!).toISOString();
      const cur = new Date(s.times[k]!).toISOString();
      out.push({
        check: 'monotone-steps',
        message: `${basename(s.file)} ${s.name} (${s.label}): step ${k + 1} ${s.times[k] === s.times[k - 1] ? `repeats ${cur}` : `goes back from ${prev} to ${cur}`}`,
      });
    }
    return out;
  },
};
