import type { FastifyPluginAsync } from 'fastify';
import type { StaticFile } from '../../replies/static-files.ts';
import { DOCS_PAGE_URL } from './docs-files.ts';
import { sendDocsFile } from './docs-headers.ts';

/**
 * GET /docs: the API reference page (Swagger UI over /openapi.json). Public: the same bytes for
 * everyone, no data; the key (typed in, or `?key=`) is used by the page's script only. /docs/
 * moves to /docs with its query, so the page's relative URLs resolve one way.
 */
export function docsPageRoute(page: StaticFile, csp: string): FastifyPluginAsync {
  return async (app) => {
    app.get(DOCS_PAGE_URL, { config: { public: true }, schema: { hide: true } }, async (request, reply) => sendDocsFile(request, reply, page, csp));
    app.get(`${DOCS_PAGE_URL}/`, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const q = request.url.indexOf('?');
      return reply.redirect(`${DOCS_PAGE_URL}${q === -1 ? '' : request.url.slice(q)}`, 301);
    });
  };
}
