// Cost of canmap's request shell (CORS, API-key auth with its cache, origin rule, error
// handling) against a bare Fastify route. Run: npm run bench:auth
import path from 'node:path';
import { alternatingRounds, withServers } from '../support/noop-load.ts';

await withServers('bench_auth', path.join(import.meta.dirname, 'servers.ts'), async ({ plainUrl, canmapUrl }, key) => {
  const [bare, bearer, browser] = await alternatingRounds([
    { label: 'bare Fastify, no auth', url: `${plainUrl}/noop`, headers: {} },
    { label: 'canmap app, Bearer key', url: `${canmapUrl}/noop`, headers: { authorization: `Bearer ${key}` } },
    { label: 'canmap, key= + Origin', url: `${canmapUrl}/noop?key=${key}`, headers: { origin: 'https://maps.example.com' } },
  ], { rounds: 2, seconds: 5, connections: 20 }) as [number, number, number];
  console.log(`mean req/s: bare ${bare.toFixed(0)}, canmap Bearer ${bearer.toFixed(0)}, canmap browser-style ${browser.toFixed(0)}`);
  console.log(`canmap / bare throughput: ${(bearer / bare).toFixed(2)} (Bearer), ${(browser / bare).toFixed(2)} (key= + Origin, with CORS headers)`);
});
