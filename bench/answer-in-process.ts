/**
 * The cold phase's answer computed, not served: the every-product Business answer at the same random points, and at
 * the first of them again and again, through `WeatherService.tryObserve` and the body writer as weather.php computes
 * it (api/routes/weather.ts), without HTTP, the access layer or a socket. Its CPU per answer,
 * beside the served one and its floor (./cold-phase.ts), splits what the answer computes from what serving adds:
 * when the room a target's floor leaves is less than the computation alone, the computation has to shrink, not the
 * serving (journal, "End of session on 60a4e75", where a scratch script first measured it). The bench measures it in
 * a child process ({@link measureInChild}): the blocks it loads would otherwise stay in the bench's own memory, whose
 * growth the `time=` section reads.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TileStore } from '../tiles/read/reader.js';
import { PublishedProducts } from '../api/router/published.js';
import { WeatherService, type ObserveRequest, type PointQuery } from '../api/weather/service.js';
import { resolveFields } from '../api/access/gating.js';
import { toObserveRequest } from '../api/routes/weather.js';
import { weatherJson } from '../api/fields/response-schema.js';
import { median, ROUNDS } from './rounds.js';

export interface InProcessAnswers {
  /** CPU per answer, µs (the measuring process, user + system): the median round at the random points, then the rounds. */
  randomUs: number;
  randomRounds: number[];
  /** The same at the first point only: the answer without a random point's first loads. */
  onePointUs: number;
  onePointRounds: number[];
  /** Answers per window. */
  answers: number;
  /** Answers that had to load a block inside a timed window (the cache gave them up): 0 when the windows read warm. */
  loads: number;
}

/** `elapsed_ms` as the route writes it, a constant here: its digits are part of the body the writer writes. */
const ELAPSED_MS = 0.01;

/** The Business answers of a data directory, computed as the route computes them. */
export class AnswerInProcess {
  private readonly service: WeatherService;
  private readonly groups = resolveFields('business', undefined).groups;
  loads = 0;

  /** `clock`: now, ms (tests freeze it, as they freeze the app's); default the system's. */
  constructor(root: string, clock?: () => number) {
    const tiles = new TileStore(root);
    this.service = new WeatherService(tiles, new PublishedProducts(tiles), clock ? { clock } : {});
  }

  /** The route's own request at `p` (api/routes/weather.ts), so the service sees the shape weather.php gives it. */
  private request(p: PointQuery): ObserveRequest {
    return toObserveRequest({ lat: p.lat, lon: p.lon, ...(p.altM !== undefined ? { alt: p.altM } : {}) }, 'business', this.groups);
  }

  /** The body's bytes at `p` (`elapsed_ms` 0.01), from cached blocks or, counted in {@link loads}, after loading them. */
  async body(p: PointQuery): Promise<Buffer> {
    const req = this.request(p);
    let body = this.service.tryObserve(req);
    if (body === undefined) {
      this.loads++;
      body = await this.service.observe(req);
    }
    body.elapsed_ms = ELAPSED_MS;
    const bytes = weatherJson(body);
    if (bytes === undefined) throw new Error(`answer-in-process: the body writer did not take the answer at ${p.lat}, ${p.lon}`);
    return bytes;
  }

  /** CPU per answer over `n` answers at `at(i)`, µs. */
  private async window(n: number, at: (i: number) => PointQuery): Promise<number> {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) await this.body(at(i));
    const cpu = process.cpuUsage(before);
    return (cpu.user + cpu.system) / n;
  }

  /**
   * {@link ROUNDS} alternating windows of `answers` answers at the first `answers` random points and at the first
   * point, after one untimed pass over those points that loads what the windows read.
   */
  async measure(points: readonly PointQuery[], answers = 20_000): Promise<InProcessAnswers> {
    const some = points.slice(0, answers);
    if (some.length === 0) throw new Error('answer-in-process: no points');
    for (const p of some) await this.body(p);
    this.loads = 0;
    const randomRounds: number[] = [];
    const onePointRounds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      randomRounds.push(await this.window(answers, (i) => some[i % some.length]!));
      onePointRounds.push(await this.window(answers, () => some[0]!));
    }
    return { randomUs: median(randomRounds), randomRounds, onePointUs: median(onePointRounds), onePointRounds, answers, loads: this.loads };
  }
}

/**
 * The bench's line: the answer's computation, and what serving adds to it (`servedUs`, the served answer's CPU per
 * request, less its floor's `floorUs`, less the computation at the random points) where both are known.
 */
export function describeInProcess(a: InProcessAnswers, servedUs: number | undefined, floorUs: number | undefined): string {
  const rounds = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  const adds = servedUs !== undefined && floorUs !== undefined ? `; the warm reference's server CPU less the floor's less this: ${(servedUs - floorUs - a.randomUs).toFixed(1)} µs (what serving adds)` : '';
  return `  the same answers computed without HTTP, in a child process (tryObserve + the body writer; ${a.answers.toLocaleString('en')} a window, ${ROUNDS} rounds): ` +
    `${a.randomUs.toFixed(1)} µs of CPU per answer at the random points (rounds ${rounds(a.randomRounds)}), ${a.onePointUs.toFixed(1)} at the first point (${rounds(a.onePointRounds)})` +
    `${a.loads > 0 ? `, ${a.loads} answers loaded a block inside the windows` : ''}${adds}`;
}

/** {@link AnswerInProcess.measure} in a child process over `root`, at the first `answers` of `points`. */
export function measureInChild(root: string, points: readonly PointQuery[], answers = 20_000): Promise<InProcessAnswers> {
  return new Promise((ok, fail) => {
    const self = fileURLToPath(import.meta.url);
    // Under the tests this module is its TypeScript source, which the child runs through tsx (a dev dependency).
    const execArgv = self.endsWith('.ts') ? [...process.execArgv, '--import', 'tsx'] : process.execArgv;
    const child = fork(self, ['--answer-in-process', root, String(answers)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: InProcessAnswers | undefined;
    child.once('message', (m) => (result = m as InProcessAnswers));
    child.once('error', fail);
    child.once('exit', (code) => (result && code === 0 ? ok(result) : fail(new Error(`answer-in-process: the child exited with ${code} and no result`))));
    child.send({ points: points.slice(0, answers) });
  });
}

if (process.argv[2] === '--answer-in-process') {
  const [, , , root, answers] = process.argv;
  process.once('message', (msg: { points: PointQuery[] }) => {
    void new AnswerInProcess(root!).measure(msg.points, Number(answers)).then((r) => process.send!(r, () => process.exit(0)));
  });
}
