import type { FastifyPluginAsync } from 'fastify';
import { DOCS_PAGE_URL, loadDocsFiles } from './docs-files.ts';
import { docsAssetsRoute } from './docs-assets.ts';
import { docsCsp } from './docs-headers.ts';
import { docsPageRoute } from './docs-page.ts';

/**
 * The API reference page at /docs and its files (docs/api/platform.md, "The reference page").
 * Not part of the OpenAPI document: a page, not an operation. Neither authenticated nor
 * rate-limited nor metered; the /openapi.json it reads with the reader's key is a call as usual.
 */
export const apiDocsRoutes: FastifyPluginAsync = async (app) => {
  const files = await loadDocsFiles();
  const csp = docsCsp(app.config.baseUrl);
  const page = files.find((file) => file.url === DOCS_PAGE_URL)!;
  await app.register(docsPageRoute(page, csp));
  await app.register(docsAssetsRoute(files.filter((file) => file !== page), csp));
};
