import fp from 'fastify-plugin';
import { routeHasCapabilityRules } from '../../engines/access/capability-rules.ts';
import { checkCapabilities } from '../access/capability-check.ts';

/**
 * Adds the capability check (api/access/capability-check.ts) as a preHandler of exactly the routes
 * the table of engines/access/capability-rules.ts names: after validation, so the parameter it reads
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
