import fp from 'fastify-plugin';
import type { Pool } from '../../lib/postgres.ts';
import '../fastify-types.ts';

/** Gives route plugins `app.pg`, the API's Postgres pool (live data such as road events). Closed by api/server.ts. */
export const postgresPlugin = fp<{ pool: Pool }>(
  async (app, { pool }) => {
    app.decorate('pg', pool);
  },
  { name: 'canmap-postgres' },
);
