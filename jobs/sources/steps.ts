/**
 * Forecast step lists in configuration: `0-48` (every hour), `0-78/1,81-120/3`
 * (ICON-EU: hourly to +78 h, then 3-hourly), `0,6,12`. Hours, ascending, unique.
 */
export function parseSteps(spec: string): number[] {
  const steps = new Set<number>();
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    const m = /^(\d+)(?:-(\d+)(?:\/(\d+))?)?$/.exec(part);
    if (!m) throw new Error(`invalid steps '${spec}': '${part}' is not N, A-B or A-B/S`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    const by = m[3] === undefined ? 1 : Number(m[3]);
    if (to < from || by < 1) throw new Error(`invalid steps '${spec}': '${part}' is empty or has step 0`);
    for (let s = from; s <= to; s += by) steps.add(s);
  }
  return [...steps].sort((a, b) => a - b);
}
