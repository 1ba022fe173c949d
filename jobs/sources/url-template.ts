/**
 * URL templates with the run time filled in. Placeholders (UTC run time):
 *
 * | placeholder | example (run 2026-11-21 12Z, step 7) |
 * |---|---|
 * | `{yyyy}` `{mm}` `{dd}` `{HH}` `{MM}` | `2026` `11` `21` `12` `00` |
 * | `{yyyymmdd}` `{yyyymmddHH}` | `20261121` `2026112112` |
 * | `{step}` `{step:03}` (zero-padded to the width given) | `7` `007` |
 * | `{product}` | `nwp` |
 * | `{root}` | the source's `root` setting, e.g. `https://opendata.dwd.de` |
 * | `{url}` (checksum templates only: the file's own URL) | |
 *
 * A template containing `{step...}` expands once per configured step.
 */

export interface TemplateValues {
  run: Date;
  product: string;
  step?: number;
  url?: string;
  /** The source's provider root (a mirror stands in by changing it alone). */
  root?: string;
}

const PLACEHOLDER = /\{([A-Za-z]+)(?::(0\d+))?\}/g;
const RUN_NAMES = ['yyyy', 'mm', 'dd', 'HH', 'MM', 'yyyymmdd', 'yyyymmddHH', 'product', 'root'] as const;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Placeholder names a template uses, in order (duplicates kept). */
function placeholders(template: string): { name: string; width?: string }[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => ({ name: m[1]!, width: m[2] }));
}

export function usesStep(template: string): boolean {
  return placeholders(template).some((p) => p.name === 'step');
}

export function usesRoot(template: string): boolean {
  return placeholders(template).some((p) => p.name === 'root');
}

/** Throws naming the first unknown placeholder or stray brace. `allowUrl` for checksum templates. */
export function checkTemplate(template: string, allowUrl = false): void {
  for (const p of placeholders(template)) {
    const known = (RUN_NAMES as readonly string[]).includes(p.name) || p.name === 'step' || (allowUrl && p.name === 'url');
    if (!known) throw new Error(`unknown placeholder {${p.name}} in '${template}'`);
    if (p.width !== undefined && p.name !== 'step') throw new Error(`only {step} takes a width, not {${p.name}:${p.width}} in '${template}'`);
  }
  if (/[{}]/.test(template.replace(PLACEHOLDER, ''))) throw new Error(`unbalanced brace in '${template}'`);
}

export function fillTemplate(template: string, v: TemplateValues): string {
  const r = v.run;
  const parts: Record<string, string> = {
    yyyy: pad(r.getUTCFullYear(), 4),
    mm: pad(r.getUTCMonth() + 1, 2),
    dd: pad(r.getUTCDate(), 2),
    HH: pad(r.getUTCHours(), 2),
    MM: pad(r.getUTCMinutes(), 2),
    product: v.product,
  };
  parts.yyyymmdd = parts.yyyy! + parts.mm! + parts.dd!;
  parts.yyyymmddHH = parts.yyyymmdd + parts.HH!;
  return template.replace(PLACEHOLDER, (_m, name: string, width?: string) => {
    if (name === 'step') {
      if (v.step === undefined) throw new Error(`template '${template}' needs a step`);
      return width ? pad(v.step, Number(width)) : String(v.step);
    }
    if (name === 'root') {
      if (v.root === undefined) throw new Error(`template '${template}' uses {root} but the source sets no root`);
      return v.root.replace(/\/+$/, '');
    }
    if (name === 'url') {
      if (v.url === undefined) throw new Error(`{url} is only valid in checksum templates: '${template}'`);
      return v.url;
    }
    const value = parts[name];
    if (value === undefined) throw new Error(`unknown placeholder {${name}} in '${template}'`);
    return value;
  });
}
