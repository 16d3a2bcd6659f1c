// Cost of the per-key rate limit (one script call per event-loop turn) on an authenticated no-op
// route: canmap with auth only vs canmap with auth + rate limit, beside a bare Fastify no-op.
// Target: limited ≥ 0.8× auth-only. Run: npm run bench:access
import path from 'node:path';
import { alternatingRounds, withServers } from '../support/noop-load.ts';

const TARGET = 0.8;

await withServers('bench_access', path.join(import.meta.dirname, 'servers.ts'), async ({ plainUrl, authOnlyUrl, limitedUrl }, key) => {
  const bearer = { authorization: `Bearer ${key}` };
  const [bare, authOnly, limited] = await alternatingRounds([
    { label: 'bare Fastify, no auth', url: `${plainUrl}/noop`, headers: {} },
    { label: 'canmap, auth only', url: `${authOnlyUrl}/noop`, headers: bearer },
    { label: 'canmap, auth + rate limit', url: `${limitedUrl}/noop`, headers: bearer },
  ], { rounds: 3, seconds: 5, connections: 20 }) as [number, number, number];
  const ratio = limited / authOnly;
  console.log(`mean req/s: bare ${bare.toFixed(0)}, auth only ${authOnly.toFixed(0)}, auth + rate limit ${limited.toFixed(0)}`);
  console.log(`rate limit / auth only: ${ratio.toFixed(2)}× (target ≥ ${TARGET}×: ${ratio >= TARGET ? 'met' : 'NOT met'}); about ${((1e6 / limited) - (1e6 / authOnly)).toFixed(1)} µs more per request`);
  console.log(`auth only / bare: ${(authOnly / bare).toFixed(2)}×, auth + rate limit / bare: ${(limited / bare).toFixed(2)}×`);
});
