import type { FastifyInstance, HTTPMethods } from 'fastify';

/**
 * The methods some registered route answers at `url` (a request URL: concrete path, query
 * allowed), asked of Fastify's own router, so a route added anywhere is covered the moment it is
 * registered. OPTIONS is left out: its only route is the CORS plugin's catch-all, which answers
 * preflights and sends everything else to Not Found.
 */
export function methodsServedAt(app: FastifyInstance, url: string): string[] {
  return app.supportedMethods.filter((method) => method !== 'OPTIONS' && app.findRoute({ method: method as HTTPMethods, url }) !== null);
}
