/** The products `meteopunto ingest <product>` knows. */
import { IngestError } from '../ingest-types.js';
import { camsProduct } from './cams/index.js';
import { demProduct } from './dem/index.js';
import { marineProduct } from './marine/index.js';
import { nwpProduct } from './nwp/index.js';
import { nwpSoilProduct } from './nwp-soil/index.js';
import type { Product } from './product.js';
import { reanalysisProduct } from './reanalysis/index.js';
import { sm100Product } from './sm100/index.js';
import { soilProduct } from './soil/index.js';
import { uvProduct } from './uv/index.js';

export const PRODUCTS: Readonly<Record<string, Product>> = {
  nwp: nwpProduct,
  dem: demProduct,
  cams: camsProduct,
  marine: marineProduct,
  reanalysis: reanalysisProduct,
  soil: soilProduct,
  'nwp-soil': nwpSoilProduct,
  uv: uvProduct,
  sm100: sm100Product,
};

/** The product called `name`; IngestError listing the known ones otherwise. */
export function getProduct(name: string): Product {
  const p = Object.hasOwn(PRODUCTS, name) ? PRODUCTS[name] : undefined;
  if (!p) throw new IngestError(`unknown product '${name}': known products are ${Object.keys(PRODUCTS).join(', ')}`);
  return p;
}
