/** Where Meteopunto keeps its data: `$METEOPUNTO_DATA`, default `./data`. */
import { resolve, join } from 'node:path';
import { processEnv } from './process-env.js';
import { setting, type Environment } from './environment.js';

export function dataDir(env: Environment = processEnv()): string {
  return resolve(setting(env, 'METEOPUNTO_DATA') ?? 'data');
}

export function tilesDir(root: string): string {
  return join(root, 'tiles');
}

/** Where `tiles render` writes a map when no --out is given: beside the tiles, never in the checkout. */
export function rendersDir(root: string): string {
  return join(root, 'renders');
}

export function productDir(root: string, product: string): string {
  return join(root, 'tiles', product);
}

/** The ingest gate's refusals, one JSON line each (tiles/gate-refusals.ts). */
export function gateRefusalsFile(root: string): string {
  return join(root, 'tiles', 'gate-refusals.jsonl');
}
