import fp from 'fastify-plugin';
import type { ReleaseStore } from '../../releases/reader.ts';
import '../fastify-types.ts';

/** Gives route plugins `app.releases`. The store's lifecycle (start/stop) belongs to api/server.ts. */
export const releaseStorePlugin = fp<{ store: ReleaseStore }>(
  async (app, { store }) => {
    app.decorate('releases', store);
  },
  { name: 'canmap-release-store' },
);
