/**
 * The cold-phase section of `npm run bench`: runs ./cold-phase.ts (a start
 * and a publish under load, the warm reference, the floor, the answer
 * without HTTP), prints each phase against the bare windows around it and
 * adds the cold phase's targets (./targets.ts).
 */
import { COLD_PHASE_TARGET, cpuOf, ownOf, ratioCheck, type Check, type FloorBasis } from './targets.js';
import type { BenchContext } from './section.js';
import { benchPoints } from './data.js';
import { ROUNDS, type LoadResult } from './rounds.js';
import { describeInProcess } from './answer-in-process.js';
import { runColdPhaseBench, type ColdPhase, type ColdPhaseResult } from './cold-phase.js';

/** The bare route around a phase: its windows' mean requests/s and (when both have it) CPU per request. */
function bareAround(p: ColdPhase): { rps: number; cpuUsPerRequest?: number } {
  const [a, b] = p.bare;
  const rps = (a.rps + b.rps) / 2;
  return a.cpuUsPerRequest !== undefined && b.cpuUsPerRequest !== undefined ? { rps, cpuUsPerRequest: (a.cpuUsPerRequest + b.cpuUsPerRequest) / 2 } : { rps };
}

/** A phase's requests/s over the bare route's around it: the target's ratio. */
function phaseRatio(p: ColdPhase): number {
  return p.load.rps / bareAround(p).rps;
}

/** Server CPU per request, and the bare route's over it: the ratio that a loaded machine moves least. */
function cpuText(l: LoadResult, bareUs: number | undefined): string {
  if (l.cpuUsPerRequest === undefined) return '';
  const ratio = bareUs !== undefined ? `, bare/serve ${(bareUs / l.cpuUsPerRequest).toFixed(3)}` : '';
  return `, server CPU ${l.cpuUsPerRequest.toFixed(1)} µs per request (system ${(l.sysUsPerRequest ?? 0).toFixed(1)})${ratio}`;
}

/** Bare windows this far apart (the faster over the slower, less one) say the machine changed around the phase. */
const UNSTEADY = 0.2;

/** A warning when the bare windows around a phase disagree: its ratio then rests on a machine that changed. */
function unsteady(p: ColdPhase): string {
  const [a, b] = p.bare;
  const spread = Math.max(a.rps, b.rps) / Math.min(a.rps, b.rps) - 1;
  return spread > UNSTEADY ? ` (UNSTEADY: ${(100 * spread).toFixed(0)} % apart, load from elsewhere; read this phase with care)` : '';
}

/** A bare window's requests/s and CPU per request. */
function bareText(l: LoadResult): string {
  return `${l.rps.toFixed(0)} req/s${l.cpuUsPerRequest !== undefined ? `, ${l.cpuUsPerRequest.toFixed(1)} µs` : ''}`;
}

/** The lines the bench prints, and the targets' checks (`pointReadUs`: the run's point read, for the floor's verdict). */
export function describeColdPhase(r: ColdPhaseResult, redis: boolean, pointReadUs?: number): { lines: string[]; checks: Check[] } {
  const t = COLD_PHASE_TARGET;
  const line = (p: ColdPhase, label: string) =>
    `  ${label}: ${p.load.requests.toLocaleString('en')} requests in ${p.seconds.toFixed(1)} s, ${p.load.rps.toFixed(0)} req/s, latency median ${p.load.medianMs.toFixed(2)} ms, p99 ${p.load.p99Ms.toFixed(2)} ms` +
    `${cpuText(p.load, bareAround(p).cpuUsPerRequest)}${p.load.errors ? `, ${p.load.errors} non-200 (first: ${p.load.firstError})` : ''}; ` +
    `bare before ${bareText(p.bare[0])}, after ${bareText(p.bare[1])}${unsteady(p)}; ratio to their mean ${phaseRatio(p).toFixed(3)}`;
  const f = r.floor;
  const basis: FloorBasis = {
    ...(f.bare.cpuUsPerRequest !== undefined ? { bareUs: f.bare.cpuUsPerRequest } : {}),
    ...(pointReadUs !== undefined ? { pointReadUs } : {}),
  };
  const floor = { ratio: f.floor.ratio, of: "the first point's Business answer's bytes (every product)", ...cpuOf(f.floor) };
  const checks = (p: ColdPhase): Check[] => {
    const ratio = phaseRatio(p);
    const warm = `warm ${r.steady.load.p99Ms.toFixed(1)} ms, ${phaseRatio(r.steady).toFixed(3)}`;
    return [
      { what: `cold phase, ${p.what}: p99`, measured: `${p.load.p99Ms.toFixed(1)} ms`, target: `≤ ${t.p99Ms} ms; ${warm}`, pass: p.load.p99Ms <= t.p99Ms },
      ratioCheck(`cold phase, ${p.what}: random points / bare`, ratio, t.ratio, floor, basis, { digits: 3, ...ownOf(p.load) }),
    ];
  };
  const us = (l: LoadResult) => (l.cpuUsPerRequest !== undefined ? `, server CPU ${l.cpuUsPerRequest.toFixed(1)} µs per request` : '');
  return {
    lines: [
      `cold phase: meteopunto serve on the sample dataset, business key, ${redis ? 'keys and quotas in Redis' : 'embedded keys, in-memory quotas'}, random points across Italy:`,
      `  bare route, before the start: ${r.bare.rps.toFixed(0)} req/s${cpuText(r.bare, undefined)}; ` +
        `loaded again after each phase, each phase read against the bare windows just before and after it`,
      `  start: /healthz answered after ${(r.listeningMs / 1000).toFixed(1)} s, 200 after ${(r.readyMs / 1000).toFixed(1)} s; first answer ${r.firstAnswerMs.toFixed(0)} ms`,
      line(r.start, `first ${r.start.seconds} s after the first answer`),
      line(r.publish, `from the publish to ${r.publish.seconds.toFixed(0)} s later (${(r.switchMs / 1000).toFixed(1)} s to the switch, then ${r.start.seconds} s)`),
      line(r.steady, `the next ${r.steady.seconds} s (warm, for reference)`),
      `  floor, after the server stopped (its first point's answer, ${f.floor.answerBytes} B, replayed behind the access layer; ${ROUNDS} rounds alternating with the bare route): ` +
        `${f.floor.rps.toFixed(0)} req/s${us(f.floor)}; bare ${f.bare.rps.toFixed(0)} req/s${us(f.bare)}; ratio ${f.floor.ratio.toFixed(3)} ` +
        `(rounds ${f.floor.ratios.map((x) => x.toFixed(3)).join(', ')})`,
      describeInProcess(r.inProcess, r.steady.load.cpuUsPerRequest, r.floor.floor.cpuUsPerRequest),
    ],
    checks: [...checks(r.start), ...checks(r.publish)],
  };
}

/** The section of `npm run bench`. */
export async function runColdPhaseSection(ctx: BenchContext): Promise<void> {
  const r = await runColdPhaseBench({ seconds: ctx.seconds, connections: ctx.connections, points: benchPoints(100_000) });
  const d = describeColdPhase(r, ctx.redis, ctx.pointReadUs);
  for (const l of d.lines) console.log(l);
  ctx.checks.push(...d.checks);
}
