/** The products `meteopunto ingest <product>` knows. */
import { IngestError } from '../ingest-types.js';
import { camsProduct } from './cams/product.js';
import { demProduct } from './dem/product.js';
import { marineProduct } from './marine/product.js';
import { nwpProduct } from './nwp/product.js';
import { nwpSoilProduct } from './nwp-soil/product.js';
import { ozoneProduct } from './ozone/product.js';
import type { Product } from './product.js';
import { reanalysisProduct } from './reanalysis/product.js';
import { sm100Product } from './sm100/product.js';
import { soilProduct } from './soil/product.js';
import { uvProduct } from './uv/product.js';
import { uvNrtProduct } from './uv-nrt/product.js';

export const PRODUCTS: Readonly<Record<string, Product>> = {
  nwp: nwpProduct,
  dem: demProduct,
  cams: camsProduct,
  marine: marineProduct,
  reanalysis: reanalysisProduct,
  soil: soilProduct,
  'nwp-soil': nwpSoilProduct,
  uv: uvProduct,
  'uv-nrt': uvNrtProduct,
  ozone: ozoneProduct,
  sm100: sm100Product,
};

/** The product called `name`; IngestError listing the known ones otherwise. */
export function getProduct(name: string): Product {
  const p = Object.hasOwn(PRODUCTS, name) ? PRODUCTS[name] : undefined;
  if (!p) throw new IngestError(`unknown product '${name}': known products are ${Object.keys(PRODUCTS).join(', ')}`);
  return p;
}
