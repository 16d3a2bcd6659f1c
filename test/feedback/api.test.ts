import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { FeedbackApi } from './feedback-api.ts';

/*
 * POST /feedback and POST /places/{id}/feedback over HTTP (auth, body parser, engine, Postgres):
 * every field rule of volume 2 "Feedback report", what is stored and what is not, the receipt.
 * The daily limit has its own file (limit.test.ts).
 */

let env: TestEnv;
let api: FeedbackApi;
let key: string;

const PRODUCTS = ['tiles', 'terrain', 'names', 'geocoding', 'places', 'routing', 'layers', 'transit', 'roads', 'ev'];
const CATEGORIES = [
  'incorrect_location', 'incorrect_address', 'missing_place', 'wrong_place_name', 'wrong_category', 'bad_route',
  'missing_road_closure', 'incorrect_road_condition', 'incorrect_transit_result', 'other',
];
const VALID = { product: 'geocoding', category: 'incorrect_location', description: 'the pin is across the river' };

const row = async (id: string) => (await api.pool.query('SELECT *, context::text AS context_text FROM feedback_reports WHERE id = $1', [id])).rows[0];

beforeAll(async () => {
  env = await createTestEnv('feedback_api');
  api = await FeedbackApi.start(env);
  key = (await api.key()).key;
});
afterAll(async () => {
  await api?.close();
  await env?.cleanup();
});

describe('POST /feedback', () => {
  it('stores a valid report and answers its receipt: id fb_<timestamp digits>_<hex>, new, created_at in UTC with ms', async () => {
    api.setNow('2026-03-14T18:30:00.250Z');
    const res = await api.post('/feedback', VALID, key);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['context_stored', 'created_at', 'id', 'status']);
    expect(res.body).toMatchObject({ status: 'new', created_at: '2026-03-14T18:30:00.250Z', context_stored: false });
    expect(res.body.id).toMatch(/^fb_\d+_[0-9a-f]+$/);
    expect(res.body.id.split('_')[1]).toBe(String(Date.parse('2026-03-14T18:30:00.250Z')));
    const stored = await row(res.body.id);
    expect(stored).toMatchObject({ product: 'geocoding', category: 'incorrect_location', description: VALID.description, result_id: null, context: null, status: 'new' });
    expect(stored.created_at.toISOString()).toBe('2026-03-14T18:30:00.250Z');
  });

  it('gives every report its own id, also within one millisecond', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(async () => (await api.post('/feedback', VALID, key)).body.id as string));
    expect(new Set(ids).size).toBe(5);
  });

  it.each(PRODUCTS)('accepts product %s', async (product) => {
    const res = await api.post('/feedback', { ...VALID, product }, key);
    expect(res.status).toBe(201);
    expect((await row(res.body.id)).product).toBe(product);
  });

  it.each(CATEGORIES)('accepts category %s', async (category) => {
    const res = await api.post('/feedback', { ...VALID, category }, key);
    expect(res.status).toBe(201);
    expect((await row(res.body.id)).category).toBe(category);
  });

  it('keeps description verbatim: whitespace, line breaks, markup and 2,000 characters counted as code points', async () => {
    const odd = '  Rue Saint-Denis\r\n\t<b>wrong</b> "quoted" \\ émoji 🦫 \u200b end  ';
    const res = await api.post('/feedback', { ...VALID, description: odd }, key);
    expect(res.status).toBe(201);
    expect((await row(res.body.id)).description).toBe(odd);
    const beavers = '🦫'.repeat(2000);
    const full = await api.post('/feedback', { ...VALID, description: beavers }, key);
    expect(full.status).toBe(201);
    expect((await row(full.body.id)).description).toBe(beavers);
  });

  it('takes result_id alone, description alone, or both', async () => {
    const byId = await api.post('/feedback', { product: 'places', category: 'wrong_category', result_id: 'poi:osm:n100' }, key);
    expect(byId.status).toBe(201);
    expect(await row(byId.body.id)).toMatchObject({ result_id: 'poi:osm:n100', description: null });
    const both = await api.post('/feedback', { ...VALID, result_id: 'svc:transit:stop:via:1' }, key);
    expect(await row(both.body.id)).toMatchObject({ result_id: 'svc:transit:stop:via:1', description: VALID.description });
  });

  const PRODUCT_MESSAGE = `product must be one of ${PRODUCTS.join(', ')}`;
  const CATEGORY_MESSAGE = `category must be one of ${CATEGORIES.join(', ')}`;
  const CONTEXT_WITHOUT_FLAG = 'context is only accepted with include_context true; send include_context: true to have it stored';
  it.each([
    ['an array body', [VALID], 'body must be a JSON object'],
    ['a string body', '"geocoding"', 'body must be a JSON object'],
    ['null', 'null', 'body must be a JSON object'],
    ['no product', { category: 'other', description: 'x' }, 'product is required'],
    ['an unknown product', { ...VALID, product: 'weather' }, PRODUCT_MESSAGE],
    ['a product in capitals', { ...VALID, product: 'Geocoding' }, PRODUCT_MESSAGE],
    ['a product that is not a string', { ...VALID, product: ['geocoding'] }, PRODUCT_MESSAGE],
    ['no category', { product: 'roads', description: 'x' }, 'category is required'],
    ['an unknown category', { ...VALID, category: 'typo' }, CATEGORY_MESSAGE],
    ['a description of 2,001 characters', { ...VALID, description: 'x'.repeat(2001) }, 'description must be a string of at most 2000 characters (got 2001)'],
    ['a numeric description', { ...VALID, description: 42 }, 'description must be a string of at most 2000 characters'],
    ['a NUL in description', { ...VALID, description: 'a\u0000b' }, 'description must not contain the NUL character (\\u0000)'],
    ['a numeric result_id', { product: 'places', category: 'other', result_id: 7 }, 'result_id must be a string of at most 1024 characters'],
    ['a result_id over 1,024 characters', { product: 'places', category: 'other', result_id: 'p'.repeat(1025) }, 'result_id must be a string of at most 1024 characters (got 1025)'],
    ['neither description nor result_id', { product: 'roads', category: 'other' }, 'description or result_id is required'],
    ['a blank description and no result_id', { product: 'roads', category: 'other', description: '  \n ' }, 'description or result_id is required'],
    ['null description and result_id', { product: 'roads', category: 'other', description: null, result_id: null }, 'description or result_id is required'],
    ['include_context as a string', { ...VALID, include_context: 'true' }, 'include_context must be true or false'],
    ['include_context as 1', { ...VALID, include_context: 1 }, 'include_context must be true or false'],
    ['context as an array', { ...VALID, include_context: true, context: [1] }, 'context must be a JSON object'],
    ['context as a string', { ...VALID, include_context: true, context: 'q=Vancouver' }, 'context must be a JSON object'],
    ['context without include_context', { ...VALID, context: { q: 'Vancouver' } }, CONTEXT_WITHOUT_FLAG],
    ['context with include_context false', { ...VALID, include_context: false, context: { q: 'Vancouver' } }, CONTEXT_WITHOUT_FLAG],
  ])('400 for %s, storing nothing', async (_what, body, message) => {
    const before = await api.reportCount();
    const res = await api.post('/feedback', body, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
    expect(await api.reportCount()).toBe(before);
  });

  it('a refused report does not count against the daily limit', async () => {
    const fresh = await api.key({ accountId: 'refused-only' });
    await api.post('/feedback', { product: 'roads', category: 'other' }, fresh.key);
    const { rows } = await api.pool.query("SELECT * FROM feedback_daily_counts WHERE subject = 'account:refused-only'");
    expect(rows).toEqual([]);
  });
});

describe('context', () => {
  /** A context object whose compact JSON is exactly `bytes` bytes long. */
  const contextOf = (bytes: number, char = 'a') => {
    const shell = JSON.stringify({ q: '' }).length;
    const perChar = Buffer.byteLength(char);
    return { q: char.repeat(Math.floor((bytes - shell) / perChar)) + 'a'.repeat((bytes - shell) % perChar) };
  };

  it('is kept with include_context true, as sent, and context_stored says so', async () => {
    const context = { endpoint: '/geocode/search', params: { q: '1 rue Sainte-Catherine', limit: 5 }, answer_ids: ['a', 'b'] };
    const res = await api.post('/feedback', { ...VALID, include_context: true, context }, key);
    expect(res.status).toBe(201);
    expect(res.body.context_stored).toBe(true);
    const stored = await row(res.body.id);
    expect(stored.context).toEqual(context);
    expect(stored.context_text).toBe(JSON.stringify(context));
  });

  it('up to 4 KB encoded: 4,096 bytes of compact JSON are kept, 4,097 are a 400 naming the size', async () => {
    const exact = contextOf(4096);
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(4096);
    const kept = await api.post('/feedback', { ...VALID, include_context: true, context: exact }, key);
    expect(kept.status).toBe(201);
    expect(kept.body.context_stored).toBe(true);
    expect((await row(kept.body.id)).context).toEqual(exact);

    const before = await api.reportCount();
    const over = await api.post('/feedback', { ...VALID, include_context: true, context: contextOf(4097) }, key);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'context must be at most 4 KB encoded (4096 bytes of compact JSON; got 4097)' });
    expect(await api.reportCount()).toBe(before);
  });

  it('counts UTF-8 bytes, not characters, and ignores the whitespace of the sent body', async () => {
    const accents = contextOf(4097, 'é');
    expect(JSON.stringify(accents).length).toBeLessThan(4096);
    const over = await api.post('/feedback', { ...VALID, include_context: true, context: accents }, key);
    expect(over.status).toBe(400);
    expect(over.body.error).toMatch(/got 4097\)$/);
    const spaced = JSON.stringify({ ...VALID, include_context: true, context: contextOf(4096) }, null, 8);
    expect((await api.post('/feedback', spaced, key)).status).toBe(201);
  });

  it('include_context true without context stores none', async () => {
    const res = await api.post('/feedback', { ...VALID, include_context: true }, key);
    expect(res.status).toBe(201);
    expect(res.body.context_stored).toBe(false);
    expect((await row(res.body.id)).context).toBeNull();
  });

  it('nothing of the request is stored without context: no key, account, query, header or address', async () => {
    const account = await api.key({ accountId: 'privacy-check', plan: 'indie' });
    const res = await api.post('/feedback?key=ignored&ref=secret-query', { ...VALID, extra: 'unknown-member-text' }, account.key, {
      'user-agent': 'SecretAgent/1.0',
      'x-forwarded-for': '203.0.113.77',
      referer: 'https://secret-referer.example/',
    });
    expect(res.status).toBe(201);
    const stored = await row(res.body.id);
    expect(Object.keys(stored).sort()).toEqual([
      'category', 'context', 'context_text', 'created_at', 'description', 'id', 'note', 'product', 'result_id', 'reviewed_at', 'reviewed_by', 'status',
    ]);
    const dump = JSON.stringify(stored);
    for (const secret of [account.key, account.id, 'privacy-check', 'secret-query', 'SecretAgent', '203.0.113.77', 'secret-referer', 'unknown-member-text']) {
      expect(dump).not.toContain(secret);
    }
    expect(stored.context).toBeNull();
  });
});

describe('POST /places/{id}/feedback', () => {
  it('takes product (places) and result_id (the decoded path id) from the path, overriding the body', async () => {
    const res = await api.post('/places/poi%3Aosm%3An100/feedback', {
      product: 'transit', result_id: 'something-else', category: 'wrong_place_name', description: 'name is outdated',
    }, key);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'new', context_stored: false });
    expect(await row(res.body.id)).toMatchObject({ product: 'places', result_id: 'poi:osm:n100', category: 'wrong_place_name', description: 'name is outdated' });
  });

  it('needs only a category: the path id is the result_id, and a body product of any value is overridden', async () => {
    const res = await api.post('/places/poi%3Aosm%3An7/feedback', { category: 'incorrect_location', product: 'banana' }, key);
    expect(res.status).toBe(201);
    expect(await row(res.body.id)).toMatchObject({ product: 'places', result_id: 'poi:osm:n7', description: null });
  });

  it('applies the other rules as /feedback does', async () => {
    expect((await api.post('/places/p1/feedback', { description: 'x' }, key)).body).toEqual({ error: 'category is required' });
    expect((await api.post('/places/p1/feedback', { category: 'other', description: 'x'.repeat(2001) }, key)).body)
      .toEqual({ error: 'description must be a string of at most 2000 characters (got 2001)' });
    expect((await api.post('/places/p1/feedback', { category: 'other', context: { a: 1 } }, key)).body)
      .toEqual({ error: 'context is only accepted with include_context true; send include_context: true to have it stored' });
    const kept = await api.post('/places/p1/feedback', { category: 'other', include_context: true, context: { from: '/places/search?q=bean' } }, key);
    expect(kept.body.context_stored).toBe(true);
    expect((await row(kept.body.id)).context).toEqual({ from: '/places/search?q=bean' });
  });

  it('does not need the place to exist in the served release (none is served here)', async () => {
    const res = await api.post('/places/poi%3Anowhere%3A1/feedback', { category: 'missing_place' }, key);
    expect(res.status).toBe(201);
  });

  it('an id the router cannot take is the JSON place not found, and stores nothing', async () => {
    const before = await api.reportCount();
    for (const url of ['/places/%E0%A4%A/feedback', `/places/${'x'.repeat(1100)}/feedback`]) {
      const res = await api.post(url, { category: 'missing_place' }, key);
      expect([res.status, res.body], url).toEqual([404, { error: 'place not found' }]);
    }
    expect(await api.reportCount()).toBe(before);
  });
});

describe('HTTP', () => {
  it('needs a key on both routes', async () => {
    for (const url of ['/feedback', '/places/p1/feedback']) {
      const res = await api.post(url, VALID, null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'missing API key', code: 'unauthorized' });
    }
  });

  it('takes JSON bodies only, and malformed JSON is a 400', async () => {
    const text = await api.post('/feedback', 'product=geocoding', key, { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect((await api.post('/feedback', '{"product":', key)).body).toEqual({ error: 'body is not valid JSON' });
  });

  it('refuses bodies over 64 KiB with 413', async () => {
    const res = await api.post('/feedback', { ...VALID, padding: 'x'.repeat(70_000) }, key);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large', code: 'payload_too_large' });
  });

  it('is documented in /openapi.json, with no GET /feedback', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/openapi.json', headers: { authorization: `Bearer ${key}` } });
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/feedback']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/places/{id}/feedback']!)).toEqual(['post']);
    expect(JSON.stringify(doc.paths['/feedback'])).toContain('incorrect_transit_result');
    expect((await api.app.inject({ method: 'GET', url: '/feedback', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(404);
  });
});
