/**
 * The floors of `npm run bench` (docs/benchmarks.md, "The floor"): for each
 * answer a target is read on, the same answer's bytes replayed behind the
 * real access layer (./replay.ts, the `floor` server of ./servers.ts),
 * loaded in the same alternating rounds as the figure it bounds, its ratio
 * to the bare route taken per round like every other ratio.
 */
import type { ChildProcess } from 'node:child_process';
import type { Endpoint } from '../api/access/contract.js';
import { captureAnswer, type ReplayRoute } from './replay.js';
import { combineRounds, median, type LoadResult } from './rounds.js';
import { withServer } from './servers.js';

/** A floor measured in rounds: its windows combined, its ratio to the bare route per round and the median round, its answer's size. */
export type FloorResult = LoadResult & {
  ratios: number[];
  ratio: number;
  /** The replayed answer on the wire (status line, headers, body), bytes. */
  answerBytes: number;
  /** The median `elapsed_ms` its answers carried (./replay.ts), where the answer has one and its bodies were read. */
  elapsedMedianMs?: number;
};

/** A running server, as ./servers.ts hands it over. */
export interface Running {
  child: ChildProcess;
  base: string;
}

/** What a floor replays: the answer at `capturePath` of the server at `from`, asked with `apiKey`, replayed at `path`. */
export interface FloorSource {
  path: string;
  endpoint: Endpoint;
  from: string;
  capturePath: string;
  apiKey: string;
}

/** The floor server's route for a plan's weather.php or widget.php answer. */
export function floorPath(plan: string, widget = false): string {
  return `/floor/${plan}${widget ? '/widget' : ''}`;
}

/** Capture each source's answer (one request each) and start the floor server replaying them; `fn` runs against it. */
export async function withFloorServer<R>(dataDir: string, sources: readonly FloorSource[], fn: (floor: Running, routes: ReplayRoute[]) => Promise<R>): Promise<R> {
  const routes: ReplayRoute[] = [];
  for (const s of sources) routes.push({ path: s.path, endpoint: s.endpoint, answer: await captureAnswer(s.from, s.capturePath, s.apiKey) });
  return withServer('floor', dataDir, [], (child, base) => fn({ child, base }, routes), routes);
}

/** A floor's windows against the bare route's windows of the same rounds; `elapsed`: the `elapsed_ms` of the answers read. */
export function floorAgainstBare(rounds: readonly LoadResult[], bare: readonly LoadResult[], route: ReplayRoute, elapsed: readonly number[] = []): FloorResult {
  const ratios = rounds.map((w, r) => w.rps / bare[r]!.rps);
  return {
    ...combineRounds(rounds), ratios, ratio: median(ratios), answerBytes: route.answer.bytes,
    ...(elapsed.length > 0 ? { elapsedMedianMs: median(elapsed) } : {}),
  };
}
