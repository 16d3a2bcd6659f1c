import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey, KeyInputError, normalizeOrigin } from '../../lib/keys.ts';
import { findActiveKeyByHash } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { parseAddons, parsePlan } from '../../engines/access/plans.ts';

let env: TestEnv;
let pool: pg.Pool;

interface CreatedJson {
  id: string;
  key: string;
  account: string | null;
  plan: string | null;
  addons: string[];
  origins: string[];
}

async function canmapJson<T>(...args: string[]): Promise<T> {
  const run = await runCanmap([...args, '--json'], env.env);
  if (run.code !== 0) throw new Error(`canmap ${args.join(' ')} exited ${run.code}: ${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  env = await createTestEnv('keys');
  pool = createPool(env.config.databaseUrl, 2);
});
afterAll(async () => {
  await pool?.end();
  await env?.cleanup();
});

describe('input rules', () => {
  it('normalizes origins and rejects anything with a path, query or another scheme', () => {
    expect(normalizeOrigin('HTTPS://Maps.Example.com:443/')).toBe('https://maps.example.com');
    expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    for (const bad of ['https://example.com/app', 'example.com', 'ftp://example.com', 'https://example.com?x=1', 'https://u:p@example.com', 'null']) {
      expect(() => normalizeOrigin(bad), bad).toThrow(KeyInputError);
    }
  });

  it('takes dev as the hobby plan and only the five add-ons', () => {
    expect(parsePlan('dev')).toBe('hobby');
    expect(parsePlan('Growth')).toBe('growth');
    expect(() => parsePlan('enterprise')).toThrow(/unknown plan/);
    expect(parseAddons(['energy,mining', 'energy'])).toEqual(['energy', 'mining']);
    expect(() => parseAddons(['lidar'])).toThrow(/unknown add-on "lidar"/);
  });
});

describe('canmap keys', () => {
  it('create with no account flags makes a founder key, printed once and stored only as its hash', async () => {
    const created = await canmapJson<CreatedJson>('keys', 'create');
    expect(created).toMatchObject({ account: null, plan: null, addons: [], origins: [] });
    expect(created.id).toMatch(/^key_[0-9a-f]{12}$/);
    expect(created.key).toMatch(/^cmk_[A-Za-z0-9_-]{43}$/);
    const { rows } = await pool.query('SELECT key_hash FROM api_keys WHERE id = $1', [created.id]);
    expect(rows[0].key_hash).toBe(hashKey(created.key));
    const dump = JSON.stringify((await pool.query('SELECT * FROM api_keys')).rows);
    expect(dump).not.toContain(created.key);
    expect((await findActiveKeyByHash(pool, hashKey(created.key)))?.id).toBe(created.id);
  });

  it('--plan without --account creates a new account; dev means hobby', async () => {
    const created = await canmapJson<CreatedJson>('keys', 'create', '--plan', 'dev', '--addon', 'energy,mining');
    expect(created.account).toMatch(/^acct_[0-9a-f]{12}$/);
    expect(created).toMatchObject({ plan: 'hobby', addons: ['energy', 'mining'] });
  });

  it('--account creates the account once, then reuses it and updates only what is given', async () => {
    const first = await canmapJson<CreatedJson>('keys', 'create', '--account', 'acme', '--plan', 'indie', '--addon', 'remote');
    expect(first).toMatchObject({ account: 'acme', plan: 'indie', addons: ['remote'] });
    const second = await canmapJson<CreatedJson>('keys', 'create', '--account', 'acme');
    expect(second).toMatchObject({ account: 'acme', plan: 'indie', addons: ['remote'] });
    const third = await canmapJson<CreatedJson>('keys', 'create', '--account', 'acme', '--plan', 'growth');
    expect(third).toMatchObject({ account: 'acme', plan: 'growth', addons: ['remote'] });
    const fresh = await canmapJson<CreatedJson>('keys', 'create', '--account', 'newco');
    expect(fresh).toMatchObject({ account: 'newco', plan: 'hobby', addons: [] });
  });

  it('repeatable --origin, normalized', async () => {
    const created = await canmapJson<CreatedJson>('keys', 'create', '--origin', 'https://Maps.Example.com/', '--origin', 'http://localhost:5173');
    expect(created.origins).toEqual(['https://maps.example.com', 'http://localhost:5173']);
  });

  it.each([
    [['--origin', 'https://example.com/app'], /must be scheme:\/\/host\[:port\]/],
    [['--plan', 'platinum'], /unknown plan "platinum"/],
    [['--addon', 'lidar'], /unknown add-on "lidar"/],
    [['--account', 'bad id!'], /account id "bad id!"/],
  ])('create %j fails clearly with exit 2 and creates nothing', async (flags, message) => {
    const before = (await pool.query('SELECT count(*) AS n FROM api_keys')).rows[0].n;
    const run = await runCanmap(['keys', 'create', ...flags], env.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect((await pool.query('SELECT count(*) AS n FROM api_keys')).rows[0].n).toBe(before);
  });

  it('list shows every key without the secret, disable marks one, unknown ids fail', async () => {
    const created = await canmapJson<CreatedJson>('keys', 'create', '--account', 'listco', '--plan', 'indie');
    const listed = await canmapJson<{ keys: Record<string, unknown>[] }>('keys', 'list');
    const row = listed.keys.find((k) => k.id === created.id);
    expect(row).toMatchObject({ account: 'listco', plan: 'indie', addons: [], origins: [], disabled: null });
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(JSON.stringify(listed)).not.toContain(hashKey(created.key));

    const human = await runCanmap(['keys', 'list'], env.env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^ID\s+ACCOUNT\s+PLAN\s+ADDONS\s+ORIGINS\s+CREATED\s+DISABLED/);
    expect(human.stdout).toContain(created.id);
    expect(human.stdout).not.toContain(created.key);

    const disabled = await canmapJson<{ id: string; disabled: string }>('keys', 'disable', created.id);
    expect(disabled.id).toBe(created.id);
    expect(await findActiveKeyByHash(pool, hashKey(created.key))).toBeNull();
    const after = await canmapJson<{ keys: Record<string, unknown>[] }>('keys', 'list');
    expect(after.keys.find((k) => k.id === created.id)?.disabled).toBe(disabled.disabled);

    const unknown = await runCanmap(['keys', 'disable', 'key_000000000000', '--json'], env.env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: 'no API key with id key_000000000000 (see canmap keys list)' });
  });
});
