/**
 * Product `sm100`: San Marino on a 100 m grid (docs/sm100.md). Its static
 * part, the 100 m elevation, comes from a DEM (`meteopunto ingest sm100
 * <dem>`, ./terrain.ts); each published nwp version then produces one sm100
 * version (./downscale.ts), chained by the catalogue's `follows`. Inside
 * San Marino it answers the Free and Developer fields and the elevation
 * ahead of nwp and dem (priority 20).
 */
import { basename } from 'node:path';
import { describeResolution } from '../../../geo/grid.js';
import { openLiveVersion } from '../../../tiles/read/field-reader.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { productMeta, runOrderSource } from '../store-meta.js';
import { IngestError, type IngestRequest } from '../../ingest-types.js';
import type { IngestReport } from '../../ingest-report.js';
import { describeGrid } from '../../mapping/grid-choice.js';
import type { FollowOutcome, Product } from '../product.js';
import { downscaleVersion, DownscaleSkipped } from './downscale.js';
import { SM100_GRID, SM100_REGION } from './grid.js';
import { ingestTerrain, SM100_TERRAIN_STORE } from './terrain.js';
import { SM100_VARIABLES } from './variables.js';

const FOLLOWS = 'nwp';

export const sm100Product: Product = {
  name: 'sm100',
  summary: 'San Marino on a 100 m grid: give a DEM (GeoTIFF, GRIB, NetCDF); each nwp version is then downscaled onto it',
  static: false,
  layout: 'forecast',
  // Each version is downscaled from one nwp version and carries its model and run.
  runOrder: 'forecast',
  feeds: ['base', 'developer', 'elevation'],
  priority: 20,
  region: SM100_REGION,
  variables: SM100_VARIABLES,
  auxiliary: {},
  complete: () => [],
  validate: () => undefined,
  follows: { product: FOLLOWS, derive: deriveSm100 },
  ingest: ingestSm100,
};

/** Build and publish the sm100 version of the live nwp version. */
export async function deriveSm100(root: string, signal?: AbortSignal): Promise<FollowOutcome> {
  const skip = (why: string): FollowOutcome => ({ product: 'sm100', published: null, notes: [`sm100 not built: ${why}`] });
  const terrain = await openLiveVersion(root, SM100_TERRAIN_STORE);
  if (!terrain) return skip('no DEM ingested yet (meteopunto ingest sm100 <dem file>)');
  const nwp = await openLiveVersion(root, FOLLOWS);
  if (!nwp) return skip('no nwp version published yet; the next nwp ingest builds it');
  let result;
  try {
    result = await downscaleVersion(nwp, terrain, signal ? { signal } : {});
  } catch (err) {
    if (err instanceof DownscaleSkipped) return skip(err.message);
    throw err;
  }
  // A newer nwp version published meanwhile gets its own sm100 from its own ingest: do not replace that one with an older pairing.
  if ((await openLiveVersion(root, FOLLOWS))?.manifest.version !== nwp.manifest.version) return skip(`nwp moved on from ${nwp.manifest.version} while downscaling`);
  signal?.throwIfAborted();
  const published = await writeProductVersion(root, {
    ...result.input,
    source: { ...result.input.source, ...runOrderSource(sm100Product) },
    meta: { ...productMeta(sm100Product), derivedFrom: { product: FOLLOWS, version: nwp.manifest.version, resolution: describeResolution(nwp.manifest.grid) } },
  });
  return { product: 'sm100', published, notes: [`sm100 ${published.version} from nwp ${nwp.manifest.version} (${describeResolution(nwp.manifest.grid)}): ${result.notes.join('; ')}`] };
}

/** `meteopunto ingest sm100 <dem file>`: the 100 m elevation, then the sm100 version of the live nwp version. */
async function ingestSm100(req: IngestRequest): Promise<IngestReport> {
  if (req.files.length !== 1) throw new IngestError(`product sm100 takes one DEM file (GeoTIFF, GRIB or NetCDF), got ${req.files.length}`);
  const file = req.files[0]!;
  req.onProgress?.({ stage: 'read', fraction: 0, message: `reading ${basename(file)}` });
  const terrain = await ingestTerrain(req.root, file, { sample: req.source?.sample === true });
  req.onProgress?.({ stage: 'derive', fraction: 0.5, message: `downscaling the live nwp version onto ${SM100_TERRAIN_STORE} ${terrain.published.version}` });
  const follow = await deriveSm100(req.root, req.signal);
  req.onProgress?.({ stage: 'publish', fraction: 1, message: follow.published ? `published sm100 ${follow.published.version}` : 'sm100 not built' });
  const [lo, hi] = terrain.rangeInside;
  return {
    product: SM100_TERRAIN_STORE,
    version: terrain.published.version,
    times: 0,
    variables: ['elevation'],
    published: terrain.published.manifest.published,
    grid: SM100_GRID,
    gridDescription: describeGrid(SM100_GRID),
    files: [basename(file)],
    dropped: [],
    skipped: [],
    notes: [`100 m elevation from ${terrain.description}, ${terrain.subSamples} × ${terrain.subSamples} sub-samples per cell; San Marino ${Math.round(lo)}–${Math.round(hi)} m`, ...follow.notes],
    derived: follow.published ? [{ product: 'sm100', version: follow.published.version }] : [],
  };
}
