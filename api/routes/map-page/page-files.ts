import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fillPageHtml } from './page-html.ts';

const PAGE_DIR = path.resolve(import.meta.dirname, '../../../web/map');
const MAPLIBRE_DIST = path.dirname(createRequire(import.meta.url).resolve('maplibre-gl/dist/maplibre-gl.mjs'));

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The page revalidates soon (it changes with deploys); MapLibre's files change with its version only. */
const PAGE_CACHE = 'public, max-age=300';
const VENDOR_CACHE = 'public, max-age=86400';

/**
 * Every file the map page serves: URL path under /map/ → file on disk. A fixed allow-list, read
 * once at start: no request path ever reaches the file system. MapLibre's module loads its worker
 * from beside itself (`./maplibre-gl-worker.mjs?v=<version>`), so the two stay side by side.
 */
const ALLOW_LIST: readonly { url: string; file: string; cache: string }[] = [
  { url: '/map/', file: path.join(PAGE_DIR, 'index.html'), cache: PAGE_CACHE },
  ...['main.js', 'api.js', 'panel.js', 'state.js', 'map.css'].map((name) => ({ url: `/map/${name}`, file: path.join(PAGE_DIR, name), cache: PAGE_CACHE })),
  ...['maplibre-gl.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css'].map((name) => ({ url: `/map/vendor/${name}`, file: path.join(MAPLIBRE_DIST, name), cache: VENDOR_CACHE })),
];

export interface PageFile {
  url: string;
  body: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
}

export async function loadPageFiles(): Promise<PageFile[]> {
  return Promise.all(ALLOW_LIST.map(async ({ url, file, cache }) => {
    const contentType = TYPES[path.extname(file)];
    if (contentType === undefined) throw new Error(`map page: no content type for ${file}`);
    let body = await readFile(file);
    if (url === '/map/') body = Buffer.from(fillPageHtml(body.toString('utf8')), 'utf8');
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    return { url, body, contentType, cacheControl: cache, etag };
  }));
}
