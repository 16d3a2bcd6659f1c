import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const PAGE_DIR = path.resolve(import.meta.dirname, '../../../web/account');
const UPLOT_DIST = path.dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.esm.js'));

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The page's own files revalidate soon (they change with deploys); uPlot's change with its version only. */
const PAGE_CACHE = 'public, max-age=300';
const VENDOR_CACHE = 'public, max-age=86400';

export const DASHBOARD_TEMPLATE = path.join(PAGE_DIR, 'index.html');

/** The scripts and styles of the dashboard page: URL path → file. A fixed allow-list; no request path reaches the disk. */
const ASSETS: readonly { url: string; file: string; cache: string }[] = [
  ...['dashboard.js', 'api.js', 'sections.js', 'remedy.js', 'usage-series.js', 'usage-chart.js', 'format.js', 'dashboard.css']
    .map((name) => ({ url: `/account/${name}`, file: path.join(PAGE_DIR, name), cache: PAGE_CACHE })),
  ...['uPlot.esm.js', 'uPlot.min.css'].map((name) => ({ url: `/account/vendor/${name}`, file: path.join(UPLOT_DIST, name), cache: VENDOR_CACHE })),
];

export interface DashboardAsset {
  url: string;
  body: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
}

function contentTypeOf(file: string): string {
  const type = TYPES[path.extname(file)];
  if (type === undefined) throw new Error(`account dashboard: no content type for ${file}`);
  return type;
}

export async function loadDashboardAssets(): Promise<DashboardAsset[]> {
  return Promise.all(ASSETS.map(async ({ url, file, cache }) => {
    const body = await readFile(file);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    return { url, body, contentType: contentTypeOf(file), cacheControl: cache, etag };
  }));
}
