/**
 * Routes registered under a URL that does not read as their public path: the optimization alias
 * paths end their last segment in the method name (`{project}:optimizeTours`), which Fastify can
 * only match as one parameter. Written in Fastify's syntax (a single colon after a parameter is
 * kept literally) so @fastify/swagger renders `/v1/projects/{project}:optimizeTours`.
 */
export const DOCUMENTED_PATHS: Readonly<Record<string, string>> = {
  '/v1/projects/:target': '/v1/projects/:project:optimizeTours',
  '/v1/projects/:project/locations/:target': '/v1/projects/:project/locations/:location:optimizeTours',
  '/projects/:target': '/projects/:project:optimizeTours',
  '/projects/:project/locations/:target': '/projects/:project/locations/:location:optimizeTours',
};

/** The OpenAPI path of a registered route URL (`/transit/stops/:id` → `/transit/stops/{id}`). */
export function documentedPath(url: string): string {
  return (DOCUMENTED_PATHS[url] ?? url).replace(/:([A-Za-z0-9_]+)(?::(?=[A-Za-z]))?/g, (match, name: string) => `{${name}}${match.endsWith(':') ? ':' : ''}`);
}
