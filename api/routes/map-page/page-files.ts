import { createRequire } from 'node:module';
import path from 'node:path';
import { loadStaticFiles, PAGE_CACHE, VENDOR_CACHE, type StaticFile, type StaticFileEntry } from '../../replies/static-files.ts';
import { fillPageHtml } from './page-html.ts';

const PAGE_DIR = path.resolve(import.meta.dirname, '../../../web/map');
const MAPLIBRE_DIST = path.dirname(createRequire(import.meta.url).resolve('maplibre-gl/dist/maplibre-gl.mjs'));

/**
 * Every file the map page serves: URL path under /map/ → file on disk. A fixed allow-list, read
 * once at start: no request path ever reaches the file system. MapLibre's module loads its worker
 * from beside itself (`./maplibre-gl-worker.mjs?v=<version>`), so the two stay side by side.
 */
const ALLOW_LIST: readonly StaticFileEntry[] = [
  { url: '/map/', file: path.join(PAGE_DIR, 'index.html'), cache: PAGE_CACHE },
  ...['main.js', 'api.js', 'panel.js', 'state.js', 'map.css'].map((name) => ({ url: `/map/${name}`, file: path.join(PAGE_DIR, name), cache: PAGE_CACHE })),
  ...['maplibre-gl.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css'].map((name) => ({ url: `/map/vendor/${name}`, file: path.join(MAPLIBRE_DIST, name), cache: VENDOR_CACHE })),
];

export type PageFile = StaticFile;

export function loadPageFiles(): Promise<PageFile[]> {
  return loadStaticFiles('map page', ALLOW_LIST, (url, body) => (url === '/map/' ? Buffer.from(fillPageHtml(body.toString('utf8')), 'utf8') : body));
}
