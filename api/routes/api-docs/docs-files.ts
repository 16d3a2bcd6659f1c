import { createRequire } from 'node:module';
import path from 'node:path';
import { VERSIONED_CACHE } from '../../params/asset-version.ts';
import { loadStaticFiles, PAGE_CACHE, type StaticFile, type StaticFileEntry } from '../../replies/static-files.ts';

const PAGE_DIR = path.resolve(import.meta.dirname, '../../../web/docs');
const requireFromHere = createRequire(import.meta.url);
const SWAGGER_UI_DIST = path.dirname(requireFromHere.resolve('swagger-ui-dist/package.json'));
const { version: SWAGGER_UI_VERSION } = requireFromHere('swagger-ui-dist/package.json') as { version: string };
const VERSION_PLACEHOLDER = '<!--swagger-ui-version-->';

/** The page itself; its files resolve relative to it (docs/…), and it reads ../openapi.json the same way. */
export const DOCS_PAGE_URL = '/docs';

/**
 * Every file of the docs page: URL path → file on disk, read once at start, so no request path
 * ever reaches the file system. Swagger UI's files come from the installed swagger-ui-dist under
 * a URL holding its version, so they are cached immutable and a new version is a new URL.
 */
const ALLOW_LIST: readonly StaticFileEntry[] = [
  { url: DOCS_PAGE_URL, file: path.join(PAGE_DIR, 'index.html'), cache: PAGE_CACHE },
  ...['docs.js', 'docs.css'].map((name) => ({ url: `/docs/${name}`, file: path.join(PAGE_DIR, name), cache: PAGE_CACHE })),
  ...['swagger-ui-bundle.js', 'swagger-ui.css'].map((name) => ({
    url: `/docs/vendor/${SWAGGER_UI_VERSION}/${name}`, file: path.join(SWAGGER_UI_DIST, name), cache: VERSIONED_CACHE,
  })),
];

/** The page's HTML with Swagger UI's version in its vendor URLs. */
function fillDocsHtml(template: string): string {
  if (!template.includes(VERSION_PLACEHOLDER)) throw new Error(`web/docs/index.html lacks the ${VERSION_PLACEHOLDER} placeholder`);
  return template.replaceAll(VERSION_PLACEHOLDER, SWAGGER_UI_VERSION);
}

export function loadDocsFiles(): Promise<StaticFile[]> {
  return loadStaticFiles('docs page', ALLOW_LIST, (url, body) => (url === DOCS_PAGE_URL ? Buffer.from(fillDocsHtml(body.toString('utf8')), 'utf8') : body));
}
