/**
 * Emulator of the Copernicus Marine Data Store as its toolbox
 * (mercator-ocean/copernicus-marine-toolbox, `copernicusmarine get`) reaches
 * the original files:
 *
 *   GET /metadata/catalog.stac.json                                 STAC catalog, a child link per product
 *   GET /metadata/{product}/product.stac.json                       STAC collection, an item link per dataset version
 *   GET /metadata/{product}/{dataset}_{version}/dataset.stac.json   STAC item; assets.native.href (roles: data) is the
 *                                                                   files' root: {s3}/{bucket}/native/{product}/{dataset}_{version}
 *   GET /{bucket}?prefix=…[&list-type=2][&delimiter=/]              S3 ListObjects (v1 markers or v2 continuation tokens), XML
 *   GET|HEAD /{bucket}/{key}                                        the object, with ETag, Last-Modified, Content-Length
 *
 * Buckets are path-style on the same origin (an S3 endpoint on an IP
 * address is addressed path-style; the toolbox's own https_url is
 * `{endpoint}/{bucket}/{key}` too). Access is anonymous, as the toolbox's
 * unsigned boto3 client makes it. A test can make a path answer an error
 * (503, 429 with Retry-After) for its first requests; every request is
 * recorded with its arrival time.
 *
 *   const cm = await startMarineEmulator({ datasets: medDatasets({ sst: [{ date: '2025-07-09', file: SST }] }) });
 *   cm.nativeUrl(ds) + '/2025/07/…nc'   …   await cm.close()
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocal } from './http-server.js';

export interface MarineFile {
  /** Path under the dataset version's root, e.g. `2025/07/20250709000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc`. */
  key: string;
  /** The file on disk served for it. */
  path: string;
}

export interface MarineDataset {
  product: string;
  dataset: string;
  /** Version tag as the data store appends it (`202311`). */
  version: string;
  bucket: string;
  title: string;
  variables: { id: string; standardName: string; unit: string }[];
  files: MarineFile[];
}

export interface MarineRequest {
  method: string;
  path: string;
  query: string;
  at: number;
  status: number;
}

export interface MarineEmulator {
  origin: string;
  /** The STAC root the toolbox starts from (`…/metadata`). */
  stac: string;
  /** `{origin}/{bucket}/native/{product}/{dataset}_{version}`: what the dataset's native asset points at. */
  nativeUrl(ds: MarineDataset): string;
  requests: MarineRequest[];
  /** Answer the next `count` requests for `path` with `status` (and Retry-After). */
  failNext(path: string, count: number, status: number, retryAfter?: string): void;
  close(): Promise<void>;
}

/** Page size of a listing unless the request asks for fewer (S3's default and maximum). */
const MAX_KEYS = 1000;

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The Mediterranean datasets the marine product reads; SST files given, waves and physics (anfc) files if any. */
export function medDatasets(files: { sst?: MarineFile[]; waves?: MarineFile[]; physics?: MarineFile[] }): MarineDataset[] {
  return [
    {
      product: 'SST_MED_SST_L4_NRT_OBSERVATIONS_010_004', dataset: 'SST_MED_SST_L4_NRT_OBSERVATIONS_010_004_a_V2', version: '202311', bucket: 'mdl-native-12',
      title: 'Mediterranean SST Analysis, L4, 1/16deg daily', variables: [{ id: 'analysed_sst', standardName: 'sea_surface_foundation_temperature', unit: 'K' }], files: files.sst ?? [],
    },
    {
      product: 'MEDSEA_ANALYSISFORECAST_WAV_006_017', dataset: 'cmems_mod_med_wav_anfc_4.2km_PT1H-i', version: '202311', bucket: 'mdl-native-13',
      title: 'Mediterranean Sea Waves Analysis and Forecast, hourly instantaneous', files: files.waves ?? [],
      variables: [
        { id: 'VHM0', standardName: 'sea_surface_wave_significant_height', unit: 'm' },
        { id: 'VMDR', standardName: 'sea_surface_wave_from_direction', unit: 'degree' },
        { id: 'VTM10', standardName: 'sea_surface_wave_mean_period_from_variance_spectral_density_inverse_frequency_moment', unit: 's' },
      ],
    },
    {
      product: 'MEDSEA_ANALYSISFORECAST_PHY_006_013', dataset: 'cmems_mod_med_phy-tem_anfc_4.2km-2D_PT1H-m', version: '202411', bucket: 'mdl-native-13',
      title: 'Mediterranean Sea Physics Analysis and Forecast, hourly mean surface temperature', files: files.physics ?? [],
      variables: [{ id: 'thetao', standardName: 'sea_water_potential_temperature', unit: 'degrees_C' }],
    },
  ];
}

export async function startMarineEmulator(opts: { datasets: MarineDataset[] }): Promise<MarineEmulator> {
  const requests: MarineRequest[] = [];
  const failures = new Map<string, { count: number; status: number; retryAfter?: string }>();
  let origin = '';
  const full = (d: MarineDataset) => `${d.dataset}_${d.version}`;
  const root = (d: MarineDataset) => `native/${d.product}/${full(d)}`;
  const objects = new Map<string, Map<string, string>>(); // bucket → key → local path
  for (const d of opts.datasets) {
    const b = objects.get(d.bucket) ?? new Map<string, string>();
    for (const f of d.files) b.set(`${root(d)}/${f.key}`, f.path);
    objects.set(d.bucket, b);
  }
  const products = [...new Set(opts.datasets.map((d) => d.product))];

  const json = (res: ServerResponse, rec: MarineRequest, status: number, v: unknown) => {
    rec.status = status;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
  };
  const s3Error = (res: ServerResponse, rec: MarineRequest, status: number, code: string, message: string) => {
    rec.status = status;
    res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`);
  };

  const stac = (res: ServerResponse, rec: MarineRequest, path: string): boolean => {
    const base = `${origin}/metadata`;
    if (path === '/metadata/catalog.stac.json') {
      json(res, rec, 200, {
        type: 'Catalog', id: 'copernicus-marine', stac_version: '1.0.0', description: 'Copernicus Marine Data Store',
        links: [{ rel: 'root', href: `${base}/catalog.stac.json` }, ...products.map((p) => ({ rel: 'child', href: `${p}/product.stac.json`, type: 'application/json', title: p }))],
      });
      return true;
    }
    const product = /^\/metadata\/([^/]+)\/product\.stac\.json$/.exec(path);
    if (product && products.includes(product[1]!)) {
      const ds = opts.datasets.filter((d) => d.product === product[1]);
      json(res, rec, 200, {
        type: 'Collection', id: product[1], stac_version: '1.0.0', title: product[1], description: product[1], license: 'proprietary',
        extent: { spatial: { bbox: [[-6, 30, 37, 46]] }, temporal: { interval: [[null, null]] } },
        providers: [{ name: 'Copernicus Marine Service', roles: ['host', 'producer'] }],
        links: [{ rel: 'root', href: `${base}/catalog.stac.json` }, ...ds.map((d) => ({ rel: 'item', href: `${full(d)}/dataset.stac.json`, type: 'application/json', title: d.title }))],
      });
      return true;
    }
    const item = /^\/metadata\/([^/]+)\/([^/]+)\/dataset\.stac\.json$/.exec(path);
    const d = item ? opts.datasets.find((x) => x.product === item[1] && full(x) === item[2]) : undefined;
    if (d) {
      json(res, rec, 200, {
        type: 'Feature', stac_version: '1.0.0', id: full(d), collection: d.product, bbox: [-6, 30, 37, 46],
        geometry: { type: 'Polygon', coordinates: [[[-6, 30], [37, 30], [37, 46], [-6, 46], [-6, 30]]] },
        properties: { title: d.title, datetime: null, start_datetime: '2023-11-01T00:00:00Z', end_datetime: null, 'cube:variables': Object.fromEntries(d.variables.map((v) => [v.id, { id: v.id, standardName: v.standardName, unit: v.unit, type: 'data' }])) },
        assets: {
          native: { href: `${origin}/${d.bucket}/${root(d)}`, roles: ['data'], title: 'Original files', type: 'application/x-netcdf' },
        },
        links: [{ rel: 'collection', href: '../product.stac.json' }],
      });
      return true;
    }
    return false;
  };

  const list = (res: ServerResponse, rec: MarineRequest, bucket: string, q: URLSearchParams) => {
    const keys = [...(objects.get(bucket)?.keys() ?? [])].sort();
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter') ?? '';
    const v2 = q.get('list-type') === '2';
    const after = (v2 ? q.get('continuation-token') ?? q.get('start-after') : q.get('marker')) ?? '';
    const max = Math.min(Number(q.get('max-keys') ?? MAX_KEYS) || MAX_KEYS, MAX_KEYS);
    const contents: string[] = [];
    const prefixes = new Set<string>();
    let last = '';
    let truncated = false;
    for (const k of keys) {
      if (!k.startsWith(prefix) || k <= after) continue;
      if (contents.length + prefixes.size >= max) {
        truncated = true;
        break;
      }
      const rest = k.slice(prefix.length);
      const cut = delimiter ? rest.indexOf(delimiter) : -1;
      if (cut >= 0) prefixes.add(prefix + rest.slice(0, cut + delimiter.length));
      else contents.push(k);
      last = k;
    }
    const entry = (k: string) => {
      const p = objects.get(bucket)!.get(k)!;
      const st = statSync(p);
      return `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${st.mtime.toISOString()}</LastModified><ETag>"${etag(p)}"</ETag><Size>${st.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    };
    const paging = v2
      ? `<KeyCount>${contents.length + prefixes.size}</KeyCount>${truncated ? `<NextContinuationToken>${xmlEscape(last)}</NextContinuationToken>` : ''}`
      : `<Marker>${xmlEscape(after)}</Marker>${truncated ? `<NextMarker>${xmlEscape(last)}</NextMarker>` : ''}`;
    rec.status = 200;
    res.writeHead(200, { 'content-type': 'application/xml' }).end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix>${paging}<MaxKeys>${max}</MaxKeys>${delimiter ? `<Delimiter>${xmlEscape(delimiter)}</Delimiter>` : ''}<IsTruncated>${truncated}</IsTruncated>${contents.map(entry).join('')}${[...prefixes].map((p) => `<CommonPrefixes><Prefix>${xmlEscape(p)}</Prefix></CommonPrefixes>`).join('')}</ListBucketResult>`,
    );
  };

  const etags = new Map<string, string>();
  const etag = (p: string) => {
    let e = etags.get(p);
    if (!e) etags.set(p, (e = createHash('md5').update(readFileSync(p)).digest('hex')));
    return e;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    const rec: MarineRequest = { method: req.method ?? 'GET', path, query: url.search, at: Date.now(), status: 0 };
    requests.push(rec);
    const fail = failures.get(path);
    if (fail && fail.count > 0) {
      fail.count--;
      rec.status = fail.status;
      res.writeHead(fail.status, { 'content-type': 'application/xml', ...(fail.retryAfter ? { 'retry-after': fail.retryAfter } : {}) });
      return res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${fail.status === 429 ? 'SlowDown' : 'ServiceUnavailable'}</Code><Message>Please reduce your request rate.</Message></Error>`);
    }
    if (req.method === 'GET' && path.startsWith('/metadata/') && stac(res, rec, path)) return;
    const m = /^\/([^/]+)\/?(.*)$/.exec(path);
    const bucket = m?.[1] ?? '';
    if (!objects.has(bucket)) return s3Error(res, rec, 404, 'NoSuchBucket', `The specified bucket does not exist: ${bucket}`);
    const key = m![2]!;
    if (key === '' && req.method === 'GET') return list(res, rec, bucket, url.searchParams);
    const file = objects.get(bucket)!.get(key);
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) return s3Error(res, rec, 404, 'NoSuchKey', 'The specified key does not exist.');
    const st = statSync(file);
    rec.status = 200;
    res.writeHead(200, { 'content-type': 'application/x-netcdf', 'content-length': String(st.size), etag: `"${etag(file)}"`, 'last-modified': st.mtime.toUTCString(), 'accept-ranges': 'bytes' });
    if (req.method === 'HEAD') return res.end();
    res.end(readFileSync(file));
  };

  const local = await listenLocal(handle);
  origin = local.origin;
  return {
    origin,
    stac: `${origin}/metadata`,
    nativeUrl: (d) => `${origin}/${d.bucket}/${root(d)}`,
    requests,
    failNext: (path, count, status, retryAfter) => failures.set(path, { count, status, ...(retryAfter ? { retryAfter } : {}) }),
    close: local.close,
  };
}
