import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from '../../replies/etag.ts';
import { loadDashboardAssets, type DashboardAsset } from './dashboard-files.ts';

/**
 * Route-level onSend hooks run after the root's: the /account/* headers hook sets no-store on
 * every answer there, and these files (the same bytes for everyone, no account data) are meant
 * to be cached and revalidated by ETag.
 */
function cacheable(asset: DashboardAsset) {
  return (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void => {
    reply.header('cache-control', asset.cacheControl).header('etag', asset.etag);
    done(null, payload);
  };
}

/**
 * The account dashboard's scripts and styles, and uPlot's ESM build and stylesheet (GET
 * /account/<file>, /account/vendor/<file>). Public: no session needed, no data in them.
 */
export const dashboardAssetsRoute: FastifyPluginAsync = async (app) => {
  for (const asset of await loadDashboardAssets()) {
    app.get(asset.url, { config: { public: true }, schema: { hide: true }, onSend: cacheable(asset) }, async (request, reply) => {
      if (ifNoneMatchHits(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
      return reply.type(asset.contentType).send(asset.body);
    });
  }
};
