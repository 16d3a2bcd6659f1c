// Cost of the per-key rate limit (one script call per event-loop turn) and of metering (each turn's
// answers appended to the meter journal in one write before they leave) on an authenticated no-op route: canmap with auth only,
// auth + rate limit, auth + rate limit + meter, beside a bare Fastify no-op.
// Targets: limited ≥ 0.8× auth-only, and limited + metered ≥ 0.8× auth-only. Run: npm run bench:access
import path from 'node:path';
import { alternatingRounds, withServers } from '../support/noop-load.ts';

const TARGET = 0.8;

await withServers('bench_access', path.join(import.meta.dirname, 'servers.ts'), async ({ plainUrl, authOnlyUrl, limitedUrl, meteredUrl }, key) => {
  const bearer = { authorization: `Bearer ${key}` };
  const [bare, authOnly, limited, metered] = await alternatingRounds([
    { label: 'bare Fastify, no auth', url: `${plainUrl}/noop`, headers: {} },
    { label: 'canmap, auth only', url: `${authOnlyUrl}/noop`, headers: bearer },
    { label: 'canmap, auth + rate limit', url: `${limitedUrl}/noop`, headers: bearer },
    { label: 'canmap, auth + rate limit + meter', url: `${meteredUrl}/noop`, headers: bearer },
  ], { rounds: 3, seconds: 5, connections: 20 }) as [number, number, number, number];
  const ratio = limited / authOnly;
  console.log(`mean req/s: bare ${bare.toFixed(0)}, auth only ${authOnly.toFixed(0)}, auth + rate limit ${limited.toFixed(0)}`);
  console.log(`rate limit / auth only: ${ratio.toFixed(2)}× (target ≥ ${TARGET}×: ${ratio >= TARGET ? 'met' : 'NOT met'}); about ${((1e6 / limited) - (1e6 / authOnly)).toFixed(1)} µs more per request`);
  console.log(`auth only / bare: ${(authOnly / bare).toFixed(2)}×, auth + rate limit / bare: ${(limited / bare).toFixed(2)}×`);
  const meteredRatio = metered / authOnly;
  console.log(`rate limit + meter / auth only: ${meteredRatio.toFixed(2)}× (target ≥ ${TARGET}×: ${meteredRatio >= TARGET ? 'met' : 'NOT met'}); ` +
    `about ${((1e6 / metered) - (1e6 / limited)).toFixed(1)} µs more per request than the rate limit alone`);
  // The per-turn costs (a script call, a journal write) are shared by the requests of a turn: few
  // at 20 closed-loop connections, many at 200.
  const [authWide, meteredWide] = await alternatingRounds([
    { label: 'canmap, auth only', url: `${authOnlyUrl}/noop`, headers: bearer },
    { label: 'canmap, auth + rate limit + meter', url: `${meteredUrl}/noop`, headers: bearer },
  ], { rounds: 2, seconds: 5, connections: 200 }) as [number, number];
  console.log(`200 connections: auth only ${authWide.toFixed(0)}, auth + rate limit + meter ${meteredWide.toFixed(0)} req/s: ${(meteredWide / authWide).toFixed(2)}×`);
});
