import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ByodList } from '../../../schemas/byod-api.ts';
import { listReply } from '../../replies/byod.ts';

/** GET /byod: the caller's overlays, newest first, and the quota. */
export const listRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/byod', {
    schema: {
      tags: ['byod'],
      summary: 'Own uploaded overlays and the quota',
      description: 'Overlays belong to the API key\'s account (a key without an account owns its own).',
      response: { 200: ByodList },
    },
  }, async (request, reply) => {
    const rows = await app.services.byod.list(request.apiKey!);
    reply.header('cache-control', 'no-store');
    return listReply(rows, app.config.baseUrl);
  });
};
