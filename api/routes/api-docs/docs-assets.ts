import type { FastifyPluginAsync } from 'fastify';
import type { StaticFile } from '../../replies/static-files.ts';
import { sendDocsFile } from './docs-headers.ts';

/**
 * The docs page's script and stylesheet (/docs/docs.js, /docs/docs.css) and Swagger UI's bundle
 * and stylesheet (/docs/vendor/<version>/…). Public like the page. Any other path under /docs/
 * is an unserved path: 401 without a key, plain-text 404 with one.
 */
export function docsAssetsRoute(assets: readonly StaticFile[], csp: string): FastifyPluginAsync {
  return async (app) => {
    for (const asset of assets) {
      app.get(asset.url, { config: { public: true }, schema: { hide: true } }, async (request, reply) => sendDocsFile(request, reply, asset, csp));
    }
  };
}
