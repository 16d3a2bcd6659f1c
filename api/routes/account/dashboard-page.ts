import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sessionCookieOf } from '../../access/session.ts';
import { DASHBOARD_TEMPLATE } from './dashboard-files.ts';
import { dashboardHtml } from './dashboard-html.ts';

/**
 * Only the page's own files may run or style it; it talks to its own origin only. Includes the
 * frame-ancestors of every /account/* answer, which this route-level hook replaces.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Route-level onSend hooks run after the root's, so this CSP outlasts the /account/* headers hook.
function pageCsp(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  reply.header('content-security-policy', DASHBOARD_CSP);
  done(null, payload);
}

/**
 * GET /account/: the account dashboard page. It holds no account data itself, only the shell
 * its script fills from /account/me and /account/usage, which check the session; without a live
 * session it opens on the sign-in form. No-store like every /account/* answer. Not in the
 * OpenAPI document: a page, not an operation.
 */
export const dashboardPageRoute: FastifyPluginAsync = async (app) => {
  const html = dashboardHtml(await readFile(DASHBOARD_TEMPLATE, 'utf8'), app.config.dashboardUrl);
  app.get('/account/', { config: { public: true }, schema: { hide: true }, onSend: pageCsp }, async (request, reply) => {
    const signedIn = await app.services.account.isSignedIn(sessionCookieOf(request));
    return reply.type('text/html; charset=utf-8').send(html.render(signedIn ? 'dashboard' : 'signin'));
  });
  // Relative URLs in the page resolve against /account/.
  app.get('/account', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => reply.redirect('/account/', 301));
};
