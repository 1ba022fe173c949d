/**
 * The storage of a data root: what every `root` the tile functions take
 * resolves to. A root given as a directory path (`$METEOPUNTO_DATA`) stores
 * its tiles in `<root>/tiles`; a storage given as such is used as it is.
 */
import { tilesDir } from '../../config/paths.js';
import { LocalStorage } from './local.js';
import type { TileStorage } from './types.js';

/** A data directory, or the storage itself. */
export type TilesAt = string | TileStorage;

export function tileStorage(at: TilesAt): TileStorage {
  return typeof at === 'string' ? new LocalStorage(tilesDir(at)) : at;
}
