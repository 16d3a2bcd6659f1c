import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { glyphsRoutes } from './glyphs.ts';
import { spriteRoutes } from './sprite.ts';

/** Glyphs and sprites of the enabled assets release (volume 3 "Maps"). */
export const assetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(glyphsRoutes);
  await app.register(spriteRoutes);
};
