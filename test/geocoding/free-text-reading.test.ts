import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { requiredCapabilities } from '../../engines/access/capability-rules.ts';
import { readFreeText, type FreeText } from '../../engines/grammars/free-text.ts';
import { parseFreeText, parseGrammarQuery } from '../../engines/grammars/parse.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

describe('free text is read once', () => {
  it('trims and detects the grammar; the parse takes that reading', () => {
    const read = readFreeText('  NW-25-24-1-W5 ');
    expect(read).toEqual({ text: 'NW-25-24-1-W5', grammar: 'dls' });
    expect(parseFreeText(read)).toEqual(parseGrammarQuery('NW-25-24-1-W5'));
    expect(readFreeText('123 Main St')).toEqual({ text: '123 Main St', grammar: null });
    expect(parseFreeText(readFreeText('123 Main St'))).toBeNull();
  });

  it('the capability table decides on the reading it is given, not on a second detection', () => {
    const reading: FreeText[] = [{ text: '123 Main St', grammar: 'pid' }];
    const input = { query: { q: '123 Main St' }, body: undefined };
    expect(requiredCapabilities('GET', '/geocode/search', input)).toEqual([]);
    expect(requiredCapabilities('GET', '/geocode/search', { ...input, freeText: reading }).map((r) => r.capability)).toEqual(['agriculture']);
  });
});

describe('over HTTP: the reading is on the request before the capability check', () => {
  let env: TestEnv;
  let pool: pg.Pool;
  let app: FastifyInstance;
  const seen: { url: string; freeText: unknown }[] = [];

  beforeAll(async () => {
    env = await createTestEnv('geocoding_free_text_reading');
    pool = createPool(env.config.databaseUrl, 4);
    const releases = new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 60_000 });
    app = await buildApp({ config: env.config, pool, releases, logger: false });
    app.addHook('onResponse', async (request) => { seen.push({ url: request.url, freeText: request.freeText }); });
  });
  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await env?.cleanup();
  });

  it('a 403 from the capability check already carries the reading of q and of every batch entry', async () => {
    const key = (await createKey(pool, { plan: 'indie' })).key;
    const headers = { authorization: `Bearer ${key}` };
    const search = await app.inject({ url: '/geocode/search?q=%20NW-25-24-1-W5', headers });
    const batch = await app.inject({ method: 'POST', url: '/geocode/batch', payload: { queries: ['Calgary', ' ', '012-345-678'] }, headers });
    expect([search.statusCode, batch.statusCode]).toEqual([403, 403]);
    expect(seen.map((s) => s.freeText)).toEqual([
      [{ text: 'NW-25-24-1-W5', grammar: 'dls' }],
      [{ text: 'Calgary', grammar: null }, { text: '', grammar: null }, { text: '012-345-678', grammar: 'pid' }],
    ]);
  });
});
