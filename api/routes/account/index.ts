import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ACCOUNT_HEADERS, isAccountPath } from '../../access/session.ts';
import { dashboardAssetsRoute } from './dashboard-assets.ts';
import { dashboardPageRoute } from './dashboard-page.ts';
import { loginRoute } from './login.ts';
import { logoutRoute } from './logout.ts';
import { meRoute } from './me.ts';
import { usageRoute } from './usage.ts';

/**
 * Every answer to an /account/* path gets the not-for-embedding headers and no CORS header. The
 * hook sits on the root, not in this plugin's scope, because some of those answers are not this
 * plugin's: CORS preflights, unknown /account/* paths and their API-key 401s are answered by root
 * handlers. It runs after the meter's onSend, which may replace an answer.
 */
function accountHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (!isAccountPath(request.url)) return done(null, payload);
  for (const name of Object.keys(reply.getHeaders())) {
    if (name.startsWith('access-control-')) reply.removeHeader(name);
  }
  reply.headers(ACCOUNT_HEADERS);
  done(null, payload);
}

/**
 * The account dashboard (volume 1, Authentication rule 7): browser sessions from login links of
 * `canmap accounts login-link`, never API keys. The routes are `public`, so the API-key hooks
 * (auth, blocked check, rate limit, meter: all keyed on `request.apiKey`) pass them by; each route
 * checks the session cookie itself (api/access/session.ts).
 */
export const accountRoutes = fp(
  async (app) => {
    app.addHook('onSend', accountHeaders);
    await app.register(loginRoute);
    await app.register(logoutRoute);
    await app.register(meRoute);
    await app.register(usageRoute);
    await app.register(dashboardPageRoute);
    await app.register(dashboardAssetsRoute);
  },
  { name: 'canmap-account-routes', dependencies: ['canmap-clock', 'canmap-postgres'] },
);
