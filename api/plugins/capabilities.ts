import fp from 'fastify-plugin';
import { routeHasCapabilityRules } from '../../engines/access/capabilities.ts';
import { checkCapabilities } from '../access/capabilities.ts';

/**
 * Adds the capability check (api/access/capabilities.ts) as a preHandler of exactly the routes
 * the table of engines/access/capabilities.ts names: after validation, so the parameter it reads
 * is the validated one, and at no cost to any other route.
 */
export const capabilitiesPlugin = fp(
  async (app) => {
    app.decorateRequest('premium', false);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.some((m) => routeHasCapabilityRules(m, route.url))) return;
      const existing = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
      route.preHandler = [async (request) => checkCapabilities(request, app.now()), ...existing];
    });
  },
  { name: 'canmap-capabilities' },
);
