/**
 * The HTTP section of `npm run bench`: runs ./http.ts (the bare route, the
 * access layer alone, weather.php and widget.php per key, in alternating
 * rounds, each weather.php window followed by its floor, the Free key's
 * widget.php by the widget's: ./floor.ts), prints each server's figures and the ratios, leaves the results
 * in the context for the sections after it and adds the HTTP targets.
 */
import { benchPoints } from './data.js';
import { runHttpBench, WIDGET_BENCH_QUERY } from './http.js';
import { ROUNDS } from './rounds.js';
import { pointRead, type BenchContext } from './section.js';
import { httpChecks } from './targets.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';

const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');

export async function runHttpSection(ctx: BenchContext): Promise<void> {
  const { seconds, connections } = ctx;
  const redisUrl = setting(processEnv(), 'BENCH_REDIS_URL');
  const http = await runHttpBench({ dataDir: ctx.root, seconds, connections, points: benchPoints(2000), keys: [...ctx.keys], ...(redisUrl ? { redisUrl } : {}) });
  ctx.http = http;
  const access = ctx.redis ? 'keys and quotas in Redis' : 'embedded keys, in-memory quotas';
  console.log(`HTTP over loopback, ${connections} keep-alive connections, ${seconds} s each in ${ROUNDS} alternating rounds, ${access} (server CPU time per request in brackets):`);
  console.log(`  bare Fastify JSON route:   ${http.bare.rps.toFixed(0)} req/s (${http.bare.cpuUsPerRequest?.toFixed(1)} µs)`);
  console.log(`  the same behind the access layer alone: ${http.access.rps.toFixed(0)} req/s (${http.access.cpuUsPerRequest?.toFixed(1)} µs; key check, quota, ` +
    `rate-limit headers, no weather; elapsed_ms median ${http.access.elapsedMedianMs.toFixed(3)})`);
  for (const w of http.weather) {
    const what = w.plan === 'free' ? 'Free fields' : 'Free + Developer fields';
    console.log(`  weather.php, ${`${w.plan} key:`.padEnd(13)} ${w.rps.toFixed(0)} req/s (${w.cpuUsPerRequest?.toFixed(1)} µs; ${what}; latency median ${w.medianMs.toFixed(2)} ms, ` +
      `p99 ${w.p99Ms.toFixed(2)} ms; elapsed_ms median ${w.elapsedMedianMs.toFixed(3)})`);
  }
  for (const w of http.weather) {
    console.log(`  widget.php,  ${`${w.plan} key:`.padEnd(13)} ${w.widget.rps.toFixed(0)} req/s (${w.widget.cpuUsPerRequest?.toFixed(1)} µs; mode=js card, ${WIDGET_BENCH_QUERY}; ` +
      `latency median ${w.widget.medianMs.toFixed(2)} ms, p99 ${w.widget.p99Ms.toFixed(2)} ms)`);
  }
  for (const w of http.weather) {
    for (const [what, f] of [['weather.php', w.floor], ['widget.php', w.widgetFloor]] as const) {
      if (!f) continue;
      console.log(`  floor of ${what}, ${`${w.plan} key:`.padEnd(13)} ${f.rps.toFixed(0)} req/s (${f.cpuUsPerRequest?.toFixed(1)} µs; its answer at a bench point, ` +
        `${f.answerBytes} B, replayed behind the access layer; latency median ${f.medianMs.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms` +
        `${f.elapsedMedianMs !== undefined ? `; elapsed_ms median ${f.elapsedMedianMs.toFixed(3)}` : ''})`);
    }
  }
  console.log(`  ratio access layer alone / bare: ${http.access.ratio.toFixed(2)} (median of the rounds ${list(http.access.ratios)}; the ceiling of weather.php's)`);
  for (const w of http.weather) {
    console.log(`  ratio weather.php (${w.plan} key) / bare: ${w.ratio.toFixed(2)} (median of the rounds ${list(w.ratios)}); ` +
      `its floor ${w.floor.ratio.toFixed(2)} (${list(w.floor.ratios)})`);
  }
  for (const w of http.weather) {
    if (!w.widgetFloor) continue;
    console.log(`  ratio of widget.php's floor (${w.plan} key) / bare: ${w.widgetFloor.ratio.toFixed(2)} (median of the rounds ${list(w.widgetFloor.ratios)}); ` +
      `over weather.php in the same rounds ${w.widgetFloor.overWeather.toFixed(2)}`);
  }
  for (const w of http.weather) console.log(`  ratio widget.php / weather.php (${w.plan} key): ${w.widgetRatio.toFixed(2)}`);
  for (const [server, b] of Object.entries(http.quotaBatches)) {
    if (!b) continue;
    console.log(`  quota decisions, ${server} server: ${b.decisions} in ${b.calls} Redis script calls (${(b.decisions / Math.max(1, b.calls)).toFixed(1)} per call), ` +
      `round trip mean ${(b.roundTripMs / Math.max(1, b.answered)).toFixed(3)} ms`);
  }
  if (http.redisCpu) {
    const per = (c: { us: number; decisions: number }) => (c.us / Math.max(1, c.decisions)).toFixed(1);
    console.log(`  Redis server CPU per quota decision (on the same cores): access server ${per(http.redisCpu.access)} µs, weather server ${per(http.redisCpu.weather)} µs`);
  }
  ctx.checks.push(...httpChecks({ ...http, redis: ctx.redis, ...pointRead(ctx) }));
}
