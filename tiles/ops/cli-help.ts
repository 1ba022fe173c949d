/**
 * `meteopunto tiles <subcommand> --help`: what each subcommand does and its
 * options; for point and render, the variables the published products hold
 * (read from their live manifests; nothing is written).
 */
import { readdirSync } from 'node:fs';
import { productDir } from '../../config/paths.js';
import { PERIOD_NAME } from '../layout.js';
import type { Manifest } from '../manifest.js';
import { TileStore } from '../read/reader.js';
import { productNames } from './products-on-disk.js';

export const TILES_USAGE = `usage:
  meteopunto tiles point <product> --lat <deg> --lon <deg> [--time <ISO 8601>] [--var <name>]... [--json]
  meteopunto tiles info <product> [--json]
  meteopunto tiles ls [--json]
  meteopunto tiles verify <product>[/<year>] [--version <v>]
  meteopunto tiles gc [--dry-run]
  meteopunto tiles render <product> --var <name> [--time <ISO 8601>] [--out <file.png>] [--width <n>]

\`meteopunto tiles <subcommand> --help\` says what each does. --time defaults to now;
the data directory is $METEOPUNTO_DATA (default ./data).`;

const HELP: Record<string, { usage: string; what: string; options: [string, string][]; variables?: boolean }> = {
  point: {
    usage: 'tiles point <product> --lat <deg> --lon <deg> [--time <ISO 8601>] [--var <name>]... [--json]',
    what: "Values at a point on the product's own grid, by each variable's rule (bilinear or nearest, masks), linear in time, no altitude correction.",
    options: [
      ['--lat <deg>', 'latitude, -90..90 (required; negative numbers work as they are: --lat -33.9)'],
      ['--lon <deg>', 'longitude, -360..360 (required)'],
      ['--time <ISO 8601>', 'the time (default: now); a date-time without zone is UTC'],
      ['--var <name>', 'only this variable (repeatable; default: all)'],
      ['--json', 'one JSON object {"time", "values"} (a stable contract)'],
    ],
    variables: true,
  },
  info: {
    usage: 'tiles info <product> [--json]',
    what: "The live version's manifest: grid, times, chunks, source, variables with units and packing.",
    options: [['--json', 'the manifest itself']],
  },
  ls: {
    usage: 'tiles ls [--json]',
    what: 'Every product on disk: live, old and retired versions, temp directories, time range, grid, size, the sample flag.',
    options: [['--json', 'the same as JSON']],
  },
  verify: {
    usage: 'tiles verify <product>[/<year>] [--version <v>]',
    what: 'Checks a version (default: the live one) against its SHA256SUMS and decodes every chunk. Exit 0 intact, 1 problems.',
    options: [['--version <v>', 'a version directory name such as 20261121T120000Z-1a2b3c.zarr']],
  },
  gc: {
    usage: 'tiles gc [--dry-run]',
    what: 'Removes versions and temp directories no reader can use, saying what and how much.',
    options: [['--dry-run', 'only say what would go']],
  },
  render: {
    usage: 'tiles render <product> --var <name> [--time <ISO 8601>] [--out <file.png>] [--width <n>]',
    what: "A PNG map of one variable of the live version at the time step nearest to --time, with a legend and Italy's outlines.",
    options: [
      ['--var <name>', 'the variable to draw (required)'],
      ['--time <ISO 8601>', 'the time step nearest to it (default: now)'],
      ['--out <file.png>', 'where to write (default: $METEOPUNTO_DATA/renders/<product>-<var>-<time>.png)'],
      ['--width <n>', 'pixels, 64..4096 (default 800)'],
    ],
    variables: true,
  },
};

/** The help of one subcommand, or undefined for an unknown one. */
export function tilesHelp(sub: string, root: string): string | undefined {
  const h = Object.hasOwn(HELP, sub) ? HELP[sub] : undefined;
  if (!h) return undefined;
  const width = Math.max(...h.options.map(([o]) => o.length)) + 2;
  const lines = [`usage: meteopunto ${h.usage}`, '', h.what, '', 'options:', ...h.options.map(([o, d]) => `  ${o.padEnd(width)}${d}`)];
  if (h.variables) lines.push('', ...publishedVariables(root));
  return lines.join('\n');
}

/** Each published product's live manifest (a period product: its latest period's). */
function publishedManifests(root: string): { product: string; manifest: Manifest }[] {
  const store = new TileStore(root);
  return productNames(root).flatMap((product) => {
    const periods = readdirSync(productDir(root, product)).filter((n) => PERIOD_NAME.test(n)).sort();
    const manifest = store.manifest(periods.length ? `${product}/${periods[periods.length - 1]}` : product);
    return manifest ? [{ product, manifest }] : [];
  });
}

function publishedVariables(root: string): string[] {
  const products = publishedManifests(root);
  if (products.length === 0) return [`variables: no product is published in ${root} yet (\`meteopunto demo\` builds the sample).`];
  const width = Math.max(...products.map((p) => p.product.length)) + 2;
  return [`variables of the products published in ${root}:`, ...products.map((p) => `  ${p.product.padEnd(width)}${Object.keys(p.manifest!.variables).join(', ')}`)];
}
