import type { FastifyRequest } from 'fastify';
import type { Config } from '../../lib/config.ts';
import { hashKey, type KeyRecord } from '../../lib/keys.ts';
import { findActiveKeyByHash } from '../../io/access/key-store.ts';
import type { Pool } from '../../lib/postgres.ts';
import { errors } from '../../lib/errors.ts';
import { presentedKey } from './credentials.ts';
import { KeyCache } from './key-cache.ts';
import { originAllowed } from './origin.ts';

export interface Authenticator {
  /**
   * The request's working key, or throws the 401/403/503 the spec prescribes. Synchronous when
   * the key's lookup is cached (the usual case), a promise when Postgres must be asked.
   */
  authenticate(request: FastifyRequest): KeyRecord | Promise<KeyRecord>;
  readonly cache: KeyCache;
}

/** The WWW-Authenticate challenge of volume 1, rule 3. */
export function bearerChallenge(baseUrl: string, keyPresented: boolean): string {
  const base = baseUrl.replace(/\/$/, '');
  const challenge = `Bearer realm="${new URL(base).host}", resource_metadata="${base}/.well-known/oauth-protected-resource"`;
  return keyPresented ? `${challenge}, error="invalid_token"` : challenge;
}

export function createAuthenticator(deps: { config: Config; pool: Pool; maxCachedKeys?: number }): Authenticator {
  const missing = bearerChallenge(deps.config.baseUrl, false);
  const invalid = bearerChallenge(deps.config.baseUrl, true);
  const cache = new KeyCache((hash) => findActiveKeyByHash(deps.pool, hash), deps.config.keyCacheTtlMs, deps.maxCachedKeys);

  function admit(record: KeyRecord | null, request: FastifyRequest): KeyRecord {
    if (record === null) throw errors.invalidKey(invalid);
    if (!originAllowed(record, request.headers)) throw errors.originNotAllowed();
    return record;
  }

  async function lookupAndAdmit(keyHash: string, request: FastifyRequest): Promise<KeyRecord> {
    let record: KeyRecord | null;
    try {
      record = await cache.load(keyHash);
    } catch (err) {
      request.log.error({ err }, 'API key lookup failed');
      throw errors.serviceUnavailable('authentication');
    }
    return admit(record, request);
  }

  return {
    cache,
    authenticate(request) {
      const key = presentedKey(request);
      if (key === null) throw errors.missingKey(missing);
      // One hash and one map lookup; unknown and disabled keys share this path and the cache.
      const keyHash = hashKey(key);
      const cached = cache.peek(keyHash);
      return cached === undefined ? lookupAndAdmit(keyHash, request) : admit(cached, request);
    },
  };
}

