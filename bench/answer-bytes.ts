/**
 * The HTTP floor of an answer: what a Fastify route costs that sends an
 * answer's exact bytes (its headers and body, captured with `curl -si`) and
 * computes nothing — no key, no quota, no lookup — against the bare JSON
 * route every ratio of `npm run bench` is taken to.
 *
 *   curl -si 'http://127.0.0.1:8080/api/v1/weather.php?lat=43.77&lon=11.25' -H 'X-API-Key: …' > business.txt
 *   node dist/bench/answer-bytes.js business.txt [free.txt …]
 *
 * Each server runs in a child process; they are loaded in turn, three
 * rounds of 6 s (./http.ts `load`, 32 connections), and each one's CPU time
 * per request is printed per round with the ratio of its requests per
 * second to the bare route's in the same round. A weather.php ratio cannot
 * be above its answer's bytes alone: docs/benchmarks-journal.md, "The floor
 * of an answer's bytes".
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { load } from './http.js';
import { median } from './rounds.js';

/** Headers Node writes itself (framing, date, keep-alive): not replayed. */
const NODE_OWN = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
const ROUNDS = 3;
const SECONDS = 6;
const CONNECTIONS = 32;

/** A captured HTTP/1.1 answer (`curl -si`): its headers to replay, in order, and its body. */
export function parseCapturedAnswer(raw: string): { headers: Array<[string, string]>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/1.1 200') || split < 0) throw new Error('answer-bytes: expected a 200 answer captured with curl -si');
  const headers: Array<[string, string]> = [];
  for (const line of raw.slice(0, split).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (!NODE_OWN.has(name)) headers.push([name, line.slice(colon + 1).trim()]);
  }
  return { headers, body: raw.slice(split + 4) };
}

async function serve(file: string | null): Promise<void> {
  const app = Fastify({ logger: false });
  if (file === null) app.get('/x', async () => ({ hello: 'world' }));
  else {
    const { headers, body } = parseCapturedAnswer(readFileSync(file, 'latin1'));
    const utf8 = Buffer.from(body, 'latin1').toString('utf8');
    app.get('/x', (_request, reply) => {
      for (const [name, value] of headers) reply.header(name, value);
      reply.send(utf8);
    });
  }
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (msg: string) => {
    if (msg === 'cpu') process.send!({ cpu: process.cpuUsage() });
    if (msg === 'stop') process.exit(0);
  });
  process.send!({ address });
}

function start(file: string | null): Promise<{ child: ChildProcess; base: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', ...(file ? [file] : [])]);
  return new Promise((ok) => child.once('message', (m: { address: string }) => ok({ child, base: m.address })));
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((ok) => {
    child.once('message', (m: { cpu: NodeJS.CpuUsage }) => ok(m.cpu.user + m.cpu.system));
    child.send('cpu');
  });
}

async function main(files: string[]): Promise<void> {
  const servers = [{ name: 'bare route', ...(await start(null)) }];
  for (const f of files) servers.push({ name: f, ...(await start(f)) });
  const rows = servers.map(() => ({ rps: [] as number[], us: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of servers.entries()) {
      await load(s.base, ['/x'], 'none', CONNECTIONS, { ms: 1000 });
      const cpu0 = await cpuOf(s.child);
      const r = await load(s.base, ['/x'], 'none', CONNECTIONS, { ms: SECONDS * 1000 });
      rows[i]!.rps.push(r.rps);
      rows[i]!.us.push(((await cpuOf(s.child)) - cpu0) / r.requests);
    }
  }
  for (const [i, s] of servers.entries()) {
    const ratios = rows[i]!.rps.map((rps, r) => rps / rows[0]!.rps[r]!);
    const us = rows[i]!.us.map((u) => u.toFixed(1)).join(', ');
    console.log(`${s.name}: ${us} µs per request; ratio to the bare route ${median(ratios).toFixed(2)} (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')})`);
  }
  for (const s of servers) s.child.send('stop');
}

if (process.argv[2] === '--serve') await serve(process.argv[3] ?? null);
else if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
