/**
 * The record of ingests the gate refused (ingest/gate/): one JSON line per
 * refused check, appended by the ingest that was refused (the CLI or a
 * worker: no server needed) and counted by /metrics
 * (`meteopunto_gate_refusals_total{product,check}`). Appends of one short
 * line are atomic (O_APPEND), so concurrent workers do not interleave.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gateRefusalsFile } from '../config/paths.js';

export interface GateRefusal {
  /** ISO 8601 UTC. */
  at: string;
  product: string;
  check: string;
  /** File names (no directories). */
  files: string[];
}

export function recordGateRefusals(root: string, refusals: readonly GateRefusal[]): void {
  if (refusals.length === 0) return;
  const file = gateRefusalsFile(root);
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, refusals.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** Refusals per product and check since the data directory was made; a line that does not parse is skipped. */
export function countGateRefusals(root: string): Map<string, { product: string; check: string; count: number }> {
  let text: string;
  try {
    text = readFileSync(gateRefusalsFile(root), 'utf8');
  } catch {
    return new Map();
  }
  const out = new Map<string, { product: string; check: string; count: number }>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    let r: Partial<GateRefusal>;
    try {
      r = JSON.parse(line) as Partial<GateRefusal>;
    } catch {
      continue;
    }
    if (typeof r.product !== 'string' || typeof r.check !== 'string') continue;
    const key = `${r.product}\u0000${r.check}`;
    const e = out.get(key) ?? { product: r.product, check: r.check, count: 0 };
    e.count++;
    out.set(key, e);
  }
  return out;
}
