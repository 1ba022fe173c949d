/** Where Meteopunto keeps its data: `$METEOPUNTO_DATA`, default `./data`. */
import { resolve, join } from 'node:path';

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.METEOPUNTO_DATA && env.METEOPUNTO_DATA.length > 0 ? env.METEOPUNTO_DATA : 'data');
}

export function tilesDir(root: string): string {
  return join(root, 'tiles');
}

export function productDir(root: string, product: string): string {
  return join(root, 'tiles', product);
}
