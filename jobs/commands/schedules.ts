/**
 * `meteopunto jobs schedules [--json]`: each product's schedule from the
 * configuration with its next tick as registered in Redis. Workers register
 * (sync) the schedules when they start; a schedule not registered yet says so.
 */
import { parseArgs } from 'node:util';
import { listSchedules } from '../schedules.js';
import { ago, openContext } from './context.js';

export async function schedulesCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true });
  const ctx = await openContext();
  try {
    const rows = await listSchedules(ctx.queues.schedule, ctx.config);
    if (values.json) {
      console.log(JSON.stringify({ config: ctx.config.path, schedules: rows }, null, 2));
      return 0;
    }
    console.log(`configuration: ${ctx.config.path ?? 'built-in defaults (no jobs.json)'}`);
    if (rows.length === 0) {
      console.log('no schedules configured');
      return 0;
    }
    const now = Date.now();
    const table = rows.map((r) => [
      r.product,
      r.pattern,
      r.tz ?? '',
      r.next ? `${r.next} (${ago(Date.parse(r.next), now)})` : r.registered ? '-' : 'not registered: start a worker',
      r.stale ? 'NOT IN CONFIG (removed at next worker start)' : (r.source ?? ''),
    ]);
    const head = ['PRODUCT', 'SCHEDULE', 'TZ', 'NEXT RUN (UTC)', 'SOURCE'];
    const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
    for (const row of [head, ...table]) console.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
    return 0;
  } finally {
    await ctx.close();
  }
}
