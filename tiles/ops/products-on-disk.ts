/**
 * Which products the data directory holds, for the tiles CLI's messages:
 * a product that is not there is named as such, with those that are.
 */
import { dataDir } from '../../config/paths.js';
import { tileStorage } from '../storage/open.js';
import { TileError } from '../errors.js';

/** Names of the products in the root's tile storage (a bucket: as its view last listed them). */
export function productNames(root: string): string[] {
  try {
    return tileStorage(root).sync.dirs('').filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
}

/**
 * Nothing live for `product`: no such product in the tile storage (naming
 * those there), or one not yet published. Where: the data directory, or the
 * bucket (`s3://…`), listed now rather than as its view last saw it.
 */
export async function notPublished(product: string): Promise<TileError> {
  const root = dataDir();
  const storage = tileStorage(root);
  const where = storage.kind === 'local' ? root : storage.location;
  const names = storage.kind === 'local' ? productNames(root) : (await storage.children('').catch(() => ({ dirs: [] as string[] }))).dirs.filter((n) => !n.startsWith('.'));
  if (names.includes(product)) return new TileError('PRODUCT_NOT_PUBLISHED', `no tiles published for product '${product}' in ${where}`, { product });
  const there = names.length ? `the products there are ${names.join(', ')}` : 'it holds no product yet (`meteopunto demo` builds the sample)';
  return new TileError('PRODUCT_NOT_PUBLISHED', `no such product '${product}' in ${where}: ${there}`, { product });
}
