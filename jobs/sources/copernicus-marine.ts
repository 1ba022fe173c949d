/**
 * Copernicus Marine original files, found the way the Copernicus Marine
 * toolbox finds them (`copernicusmarine get`): the STAC collection of the
 * product (`{stac}/{product}/product.stac.json`) → the item of the dataset's
 * newest version (`{dataset}_{version}/dataset.stac.json`) → its `native`
 * asset, the files' root on the data store's S3 endpoint
 * (`{endpoint}/{bucket}/native/{product}/{dataset}_{version}`) → an S3
 * ListObjectsV2 of the months wanted (`{root}/{yyyy}/{mm}/`, paged) → the
 * objects, downloaded with the HTTP source's checks (http.ts). Access is
 * anonymous, as the toolbox's unsigned S3 client makes it: no credential.
 *
 * Which files: those whose name starts with a date (`yyyymmdd…`, as every
 * MED native file does: `20250709000000-GOS-L4_GHRSST-…nc`,
 * `2025070900_h-HCMR--WAVE-MEDWAM4-MEDATL-b20250708_fc00-sv10.00.nc`) from
 * `daysBack` days before the run's day to `daysAhead` days after it; of
 * several files for one date the newest bulletin (`-b{yyyymmdd}`, then the
 * greater name); with `latest`, only the newest that many dates. None at all
 * is NOT_PUBLISHED: the job is retried later.
 */
import { basename } from 'node:path';
import type { HttpFileSpec, MarineSourceSpec } from '../job-types.js';
import { getText, type TextRequest } from './http-text.js';
import { SourceError } from './source-error.js';

const DAY_MS = 86_400_000;

/** The dataset's native root URL from the STAC catalogue (newest version of the dataset). */
export async function nativeRoot(stac: string, product: string, dataset: string, req: TextRequest): Promise<string> {
  const productUrl = `${stac.replace(/\/+$/, '')}/${product}/product.stac.json`;
  const collection = parseJson(await getText(productUrl, req), productUrl) as { links?: { rel?: string; href?: string }[] };
  const items = (collection.links ?? []).filter((l) => l.rel === 'item' && typeof l.href === 'string' && l.href.split('/')[0]!.startsWith(`${dataset}_`));
  if (items.length === 0) throw new SourceError('BAD_ANSWER', `${productUrl}: no dataset ${dataset} in product ${product}`, false);
  // Version tags are dates (`202311`, `202411`): the greatest is the newest.
  const item = items.sort((a, b) => (a.href! < b.href! ? 1 : -1))[0]!;
  const itemUrl = new URL(item.href!, productUrl).href;
  const feature = parseJson(await getText(itemUrl, req), itemUrl) as { assets?: Record<string, { href?: string; roles?: string[] }> };
  const href = feature.assets?.native?.href;
  if (!href) throw new SourceError('BAD_ANSWER', `${itemUrl}: no native asset (the original files' root)`, false);
  return href.replace(/\/+$/, '');
}

/** Every key under `prefix` of the bucket the native root names, through ListObjectsV2 pages. */
export async function listKeys(native: string, prefix: string, req: TextRequest): Promise<string[]> {
  const u = new URL(native);
  const [bucket, ...rest] = u.pathname.replace(/^\/+/, '').split('/');
  const root = rest.join('/');
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const q = new URLSearchParams({ 'list-type': '2', prefix: `${root}/${prefix}`, ...(token ? { 'continuation-token': token } : {}) });
    const url = `${u.origin}/${bucket}?${q}`;
    const xml = await getText(url, req);
    if (!xml.includes('<ListBucketResult')) throw new SourceError('BAD_ANSWER', `${url}: not an S3 listing`, false);
    for (const m of xml.matchAll(/<Contents>[\s\S]*?<Key>([\s\S]*?)<\/Key>/g)) keys.push(`${u.origin}/${bucket}/${unescapeXml(m[1]!)}`);
    token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? unescapeXml(/<NextContinuationToken>([\s\S]*?)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '') || undefined : undefined;
  } while (token);
  return keys;
}

/** The files of one dataset for the run: dated names inside the window, newest bulletin per date, the newest `latest` dates. */
export function selectFiles(urls: readonly string[], run: Date, ds: { daysBack: number; daysAhead: number; latest?: number }): string[] {
  const day = Date.UTC(run.getUTCFullYear(), run.getUTCMonth(), run.getUTCDate());
  const from = day - ds.daysBack * DAY_MS;
  const to = day + ds.daysAhead * DAY_MS;
  const byDate = new Map<number, string>();
  for (const url of urls) {
    const m = /^(\d{4})(\d{2})(\d{2})/.exec(basename(url));
    if (!m) continue;
    const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    if (t < from || t > to) continue;
    const cur = byDate.get(t);
    if (!cur || newerBulletin(url, cur)) byDate.set(t, url);
  }
  const dates = [...byDate.keys()].sort((a, b) => a - b);
  return (ds.latest ? dates.slice(-ds.latest) : dates).map((t) => byDate.get(t)!);
}

/** The S3 prefixes (`yyyy/mm/`) of the months the window touches. */
export function monthPrefixes(run: Date, daysBack: number, daysAhead: number): string[] {
  const out = new Set<string>();
  const day = Date.UTC(run.getUTCFullYear(), run.getUTCMonth(), run.getUTCDate());
  for (let t = day - daysBack * DAY_MS; t <= day + daysAhead * DAY_MS; t += DAY_MS) out.add(new Date(t).toISOString().slice(0, 7).replace('-', '/') + '/');
  return [...out];
}

/** The files to download for a marine job: per dataset, found through the STAC catalogue and the S3 listing. */
export async function marineFiles(spec: MarineSourceSpec, req: TextRequest): Promise<HttpFileSpec[]> {
  const run = new Date(spec.run);
  const files: HttpFileSpec[] = [];
  for (const ds of spec.datasets) {
    const native = await nativeRoot(spec.stac, ds.product, ds.dataset, req);
    const listed: string[] = [];
    for (const p of monthPrefixes(run, ds.daysBack, ds.daysAhead)) listed.push(...(await listKeys(native, p, req)));
    const chosen = selectFiles(listed, run, ds);
    if (chosen.length === 0) {
      const span = `${new Date(run.getTime() - ds.daysBack * DAY_MS).toISOString().slice(0, 10)}..${new Date(run.getTime() + ds.daysAhead * DAY_MS).toISOString().slice(0, 10)}`;
      throw new SourceError('NOT_PUBLISHED', `${ds.dataset}: no file dated ${span} under ${native}`, true);
    }
    for (const url of chosen) files.push({ url, name: `${ds.dataset}--${basename(url)}`, decompress: 'none' });
  }
  return files;
}

function newerBulletin(a: string, b: string): boolean {
  const bulletin = (u: string) => /-b(\d{8})/.exec(basename(u))?.[1] ?? '';
  const [ba, bb] = [bulletin(a), bulletin(b)];
  return ba !== bb ? ba > bb : a > b;
}

function parseJson(text: string, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SourceError('BAD_ANSWER', `${url}: not JSON`, false);
  }
}

function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()]!;
  });
}
