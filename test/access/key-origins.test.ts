import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { setPlan } from '../../io/access/accounts.ts';
import { checkOriginAllowance, droppedOrigins, honouredOrigins, productionOrigins } from '../../lib/key-origins.ts';
import { KeyInputError } from '../../lib/keys.ts';
import { createKey, setKeyOrigins, type CreateKeyInput } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore } from '../../releases/reader.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

const A = 'https://a.example';
const B = 'https://b.example';
const DEV = ['http://localhost:5173', 'https://preview.site.pages.dev', 'http://127.0.0.1:8080'];
const prod = (n: number) => Array.from({ length: n }, (_, i) => `https://app${i}.example`);

describe('the allowance rules (pure)', () => {
  it('production origins are the non-dev ones, in order', () => {
    expect(productionOrigins([DEV[0]!, B, DEV[1]!, A])).toEqual([B, A]);
  });

  it.each([
    ['hobby', DEV, null],
    ['hobby', [A], /^the dev plan allows dev origins only .*; this key lists 1: https:\/\/a\.example$/],
    ['indie', [A, ...DEV], null],
    ['indie', [A, B], /^the indie plan allows 1 production origin per key; this key lists 2: https:\/\/a\.example, https:\/\/b\.example \(dev origins do not count\)$/],
    ['growth', [...prod(100), ...DEV], null],
    ['growth', prod(101), /^the growth plan allows 100 production origins per key; this key lists 101: /],
    [null, prod(500), null],
  ] as const)('%s with %j', (plan, list, expected) => {
    const message = checkOriginAllowance(plan, list);
    if (expected === null) expect(message).toBeNull();
    else expect(message).toMatch(expected);
  });

  it('honours every dev origin and the first N production origins in stored order; no plan honours all', () => {
    expect(honouredOrigins('indie', [B, DEV[0]!, A, DEV[1]!])).toEqual([B, DEV[0], DEV[1]]);
    expect(honouredOrigins('hobby', [A, B])).toEqual([]);
    expect(honouredOrigins('hobby', [A, DEV[0]!])).toEqual([DEV[0]]);
    const list = [A, B];
    expect(honouredOrigins('growth', list)).toBe(list);
    expect(honouredOrigins(null, list)).toBe(list);
    expect(droppedOrigins('indie', [A, DEV[0]!, B])).toEqual([B]);
  });
});

describe('with Postgres, over HTTP and through the CLI', () => {
  const TTL_MS = 300;
  let env: TestEnv;
  let pool: pg.Pool;
  let app: FastifyInstance;
  const create = (input: CreateKeyInput) => createKey(pool, input);
  const get = (key: string, origin?: string) =>
    app.inject({ url: '/test/ok', headers: { authorization: `Bearer ${key}`, ...(origin ? { origin } : {}) } });
  const expire = () => new Promise((r) => setTimeout(r, TTL_MS + 100));
  const canmap = (...args: string[]) => runCanmap(args, env.env);
  const keyCount = async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM api_keys')).rows[0]!.n);

  beforeAll(async () => {
    env = await createTestEnv('key_origins');
    pool = createPool(env.config.databaseUrl, 4);
    const config = { ...env.config, keyCacheTtlMs: TTL_MS };
    const releases = new ReleaseStore({ pool, databaseUrl: config.databaseUrl, releasesDir: config.releasesDir, pollMs: 60_000 });
    app = await buildApp({ config, pool, releases, logger: false });
    app.get('/test/ok', async () => ({ ok: true }));
  });
  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await env?.cleanup();
  });

  describe('createKey and setKeyOrigins', () => {
    it('hobby: dev origins ok, a production origin refused and nothing written', async () => {
      expect((await create({ plan: 'hobby', origins: DEV })).allowedOrigins).toEqual(DEV);
      const before = await keyCount();
      await expect(create({ accountId: 'hob', plan: 'hobby', origins: [DEV[0]!, A] })).rejects.toThrow(KeyInputError);
      await expect(create({ accountId: 'hob', origins: [A] })).rejects.toThrow(/the dev plan allows dev origins only/);
      expect(await keyCount()).toBe(before);
      expect((await pool.query('SELECT 1 FROM accounts WHERE id = $1', ['hob'])).rowCount).toBe(0);
    });

    it('indie: one production origin plus dev origins ok, two refused', async () => {
      expect((await create({ plan: 'indie', origins: [A, ...DEV] })).allowedOrigins).toEqual([A, ...DEV]);
      await expect(create({ plan: 'indie', origins: [A, B] })).rejects.toThrow(
        'the indie plan allows 1 production origin per key; this key lists 2: https://a.example, https://b.example (dev origins do not count)',
      );
    });

    it('growth: 100 ok, 101 refused; a founder key is unlimited', async () => {
      expect((await create({ plan: 'growth', origins: prod(100) })).allowedOrigins).toHaveLength(100);
      await expect(create({ plan: 'growth', origins: prod(101) })).rejects.toThrow(/allows 100 production origins per key; this key lists 101/);
      expect((await create({ origins: prod(150) })).allowedOrigins).toHaveLength(150);
    });

    it('checks against the plan the key creation leaves the account on', async () => {
      await create({ accountId: 'movers', plan: 'growth' });
      // The account is growth, but this creation moves it to indie: two production origins are too many.
      await expect(create({ accountId: 'movers', plan: 'indie', origins: [A, B] })).rejects.toThrow(/the indie plan allows 1/);
      expect((await pool.query('SELECT plan FROM accounts WHERE id = $1', ['movers'])).rows[0].plan).toBe('growth');
      expect((await create({ accountId: 'movers', origins: [A, B] })).plan).toBe('growth');
    });

    it('setKeyOrigins applies the same check, clears with an empty list and refuses unknown or disabled keys', async () => {
      const { id } = await create({ accountId: 'setter', plan: 'indie' });
      expect(await setKeyOrigins(pool, id, ['https://A.example/', DEV[0]!])).toMatchObject({ allowedOrigins: [A, DEV[0]] });
      await expect(setKeyOrigins(pool, id, [A, B])).rejects.toThrow(/the indie plan allows 1/);
      expect((await pool.query('SELECT allowed_origins FROM api_keys WHERE id = $1', [id])).rows[0].allowed_origins).toEqual([A, DEV[0]]);
      expect(await setKeyOrigins(pool, id, [])).toMatchObject({ allowedOrigins: [] });
      expect(await setKeyOrigins(pool, 'key_000000000000', [])).toBe('unknown');
      await pool.query('UPDATE api_keys SET disabled_at = now() WHERE id = $1', [id]);
      expect(await setKeyOrigins(pool, id, [A])).toBe('disabled');
    });
  });

  describe('at request time', () => {
    it('after a downgrade the second production origin gets 403 origin_not_allowed, the first and dev origins still 200', async () => {
      const { key } = await create({ accountId: 'downer', plan: 'growth', origins: [A, DEV[0]!, B] });
      for (const origin of [A, B, DEV[0]!]) expect((await get(key, origin)).statusCode, origin).toBe(200);
      expect(await setPlan(pool, 'downer', 'indie')).toEqual([{ keyId: expect.any(String), notHonoured: [B] }]);
      await expire();
      const refused = await get(key, B);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'origin not allowed for this API key', code: 'origin_not_allowed' });
      expect((await get(key, A)).statusCode).toBe(200);
      expect((await get(key, DEV[0])).statusCode).toBe(200);
      // Unlisted origins and requests without one stay refused as before.
      expect((await get(key, 'https://c.example')).statusCode).toBe(403);
      expect((await get(key)).statusCode).toBe(403);
    });

    it('a dev key listing only production origins (set before a downgrade) refuses everything, never unrestricted', async () => {
      const { key } = await create({ accountId: 'shrunk', plan: 'indie', origins: [A] });
      expect((await get(key, A)).statusCode).toBe(200);
      await setPlan(pool, 'shrunk', 'hobby');
      await expire();
      for (const origin of [A, 'https://other.example', DEV[0]!, undefined]) {
        expect((await get(key, origin)).statusCode, String(origin)).toBe(403);
      }
    });

    it('a founder key honours its whole list', async () => {
      const { key } = await create({ origins: prod(3) });
      expect((await get(key, prod(3)[2])).statusCode).toBe(200);
      expect((await get(key, A)).statusCode).toBe(403);
    });
  });

  describe('canmap keys and accounts', () => {
    it('keys create over the allowance exits 2 with the message and creates nothing', async () => {
      const before = await keyCount();
      const run = await canmap('keys', 'create', '--plan', 'indie', '--origin', A, '--origin', 'http://localhost:3000', '--origin', B);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('the indie plan allows 1 production origin per key; this key lists 2: https://a.example, https://b.example (dev origins do not count)');
      const hobby = await canmap('keys', 'create', '--plan', 'dev', '--origin', A, '--json');
      expect(hobby.code).toBe(2);
      expect(JSON.parse(hobby.stdout).error).toMatch(/^the dev plan allows dev origins only/);
      expect(await keyCount()).toBe(before);
      expect((await canmap('keys', 'create', '--plan', 'dev', '--origin', DEV[0]!)).code).toBe(0);
    });

    it('keys set-origins sets, refuses over the allowance, clears, and fails on unknown or disabled keys', async () => {
      const { id } = await create({ accountId: 'cli-setter', plan: 'indie' });
      const set = await canmap('keys', 'set-origins', id, '--origin', A, '--origin', DEV[0]!, '--json');
      expect(set.code).toBe(0);
      expect(JSON.parse(set.stdout)).toEqual({ id, account: 'cli-setter', plan: 'indie', origins: [A, DEV[0]] });

      const over = await canmap('keys', 'set-origins', id, '--origin', A, '--origin', B);
      expect(over.code).toBe(2);
      expect(over.stderr).toContain('the indie plan allows 1 production origin per key; this key lists 2');

      const cleared = await canmap('keys', 'set-origins', id);
      expect(cleared.code).toBe(0);
      expect(cleared.stdout).toContain(`key ${id}: origins (any)`);
      expect((await pool.query('SELECT allowed_origins FROM api_keys WHERE id = $1', [id])).rows[0].allowed_origins).toEqual([]);

      const unknown = await canmap('keys', 'set-origins', 'key_000000000000', '--json');
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.stdout)).toEqual({ error: 'no API key with id key_000000000000 (see canmap keys list)' });
      expect((await canmap('keys', 'disable', id)).code).toBe(0);
      const disabled = await canmap('keys', 'set-origins', id, '--origin', A);
      expect(disabled.code).toBe(1);
      expect(disabled.stderr).toContain(`API key ${id} is disabled`);
      expect((await canmap('keys', 'set-origins')).code).toBe(2);
    });

    it('accounts set-plan to a smaller allowance succeeds and warns per key about the origins no longer honoured', async () => {
      const over = await create({ accountId: 'cli-down', plan: 'growth', origins: [A, DEV[0]!, B, 'https://c.example'] });
      const fits = await create({ accountId: 'cli-down', origins: [A] });
      const human = await canmap('accounts', 'set-plan', 'cli-down', 'indie');
      expect(human.code).toBe(0);
      expect(human.stdout.split('\n').filter(Boolean)).toEqual([
        'account cli-down: plan indie; blocks follow at the next enforcement run',
        `warning: key ${over.id} lists more production origins than the indie plan allows; no longer honoured (403 origin_not_allowed): https://b.example, https://c.example`,
      ]);
      expect(human.stdout).not.toContain(fits.id);

      const json = await canmap('accounts', 'set-plan', 'cli-down', 'dev', '--json');
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({
        id: 'cli-down', plan: 'hobby',
        keysOverOriginAllowance: [
          { keyId: over.id, notHonoured: [A, B, 'https://c.example'] },
          { keyId: fits.id, notHonoured: [A] },
        ],
      });
      // Back up to growth: nothing to warn about, and the document keeps its old shape.
      expect(JSON.parse((await canmap('accounts', 'set-plan', 'cli-down', 'growth', '--json')).stdout)).toEqual({ id: 'cli-down', plan: 'growth' });
    });
  });
});
