import fp from 'fastify-plugin';
import { errors } from '../../lib/errors.ts';
import { replyWithError, sendRefusal } from '../reply-error.ts';

/** The one error handler and the plain-text 404 for paths we do not serve (reached after auth). */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((err, request, reply) => replyWithError(err, request, reply));
    app.setNotFoundHandler((_request, reply) => sendRefusal(reply, errors.unservedPath()));
  },
  { name: 'canmap-error-handler' },
);
