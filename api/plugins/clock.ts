import fp from 'fastify-plugin';
import '../fastify-types.ts';

/** Gives route plugins `app.now()` (epoch ms): the clock answers depend on, replaceable in tests. */
export const clockPlugin = fp<{ now?: () => number }>(
  async (app, { now }) => {
    app.decorate('now', now ?? Date.now);
  },
  { name: 'canmap-clock' },
);
