import { createRequire } from 'node:module';
import path from 'node:path';
import { loadStaticFiles, PAGE_CACHE, VENDOR_CACHE, type StaticFile, type StaticFileEntry } from '../../replies/static-files.ts';

const PAGE_DIR = path.resolve(import.meta.dirname, '../../../web/account');
const UPLOT_DIST = path.dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.esm.js'));

export const DASHBOARD_TEMPLATE = path.join(PAGE_DIR, 'index.html');

/** The scripts and styles of the dashboard page: URL path → file. A fixed allow-list; no request path reaches the disk. */
const ASSETS: readonly StaticFileEntry[] = [
  ...['dashboard.js', 'api.js', 'sections.js', 'remedy.js', 'usage-series.js', 'usage-chart.js', 'format.js', 'dashboard.css']
    .map((name) => ({ url: `/account/${name}`, file: path.join(PAGE_DIR, name), cache: PAGE_CACHE })),
  ...['uPlot.esm.js', 'uPlot.min.css'].map((name) => ({ url: `/account/vendor/${name}`, file: path.join(UPLOT_DIST, name), cache: VENDOR_CACHE })),
];

export type DashboardAsset = StaticFile;

export function loadDashboardAssets(): Promise<DashboardAsset[]> {
  return loadStaticFiles('account dashboard', ASSETS);
}
