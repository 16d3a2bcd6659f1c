import { KeyInputError } from '../../lib/keys.ts';
import { createKey, disableKey, listKeys, setKeyOrigins, type CreateKeyInput } from '../../io/access/key-store.ts';
import type { Pool } from '../../lib/postgres.ts';
import { parseCommandArgs } from '../args.ts';
import { withSubcommands, type CommandContext, type Subcommand, withPool as withCommandPool, type ReportedError } from '../command.ts';
import { CliError, table } from '../output.ts';
import { parseAddons, parsePlan } from '../../engines/access/plans.ts';

const USAGE = 'keys create [--plan dev|indie|growth] [--account ID] [--addon a,b] [--origin URL]... | list | disable KEY_ID'
  + ' | set-origins KEY_ID [--origin URL]...';

const REPORTED: readonly ReportedError[] = [[KeyInputError, 2]];
const withPool = <T>(ctx: CommandContext, fn: (pool: Pool) => Promise<T>) => withCommandPool(ctx, fn, REPORTED);

async function create(argv: string[], ctx: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, {
    plan: { type: 'string' },
    account: { type: 'string' },
    addon: { type: 'string', multiple: true },
    origin: { type: 'string', multiple: true },
  }, USAGE);
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\nusage: canmap ${USAGE}`, 2);
  const input: CreateKeyInput = {};
  try {
    if (values.account !== undefined) input.accountId = values.account;
    if (values.plan !== undefined) input.plan = parsePlan(values.plan);
    if (values.addon !== undefined) input.addons = parseAddons(values.addon);
    input.origins = values.origin ?? [];
  } catch (err) {
    if (err instanceof KeyInputError) throw new CliError(err.message, 2);
    throw err;
  }
  const created = await withPool(ctx, (pool) => createKey(pool, input));
  const result = {
    id: created.id,
    key: created.key,
    account: created.accountId,
    plan: created.plan,
    addons: created.addons,
    origins: created.allowedOrigins,
  };
  ctx.out.result(result, () => [
    `key id   ${created.id}`,
    `account  ${created.accountId ?? '(none: founder/integration key)'}${created.plan ? ` (plan ${created.plan === 'hobby' ? 'dev' : created.plan})` : ''}`,
    `add-ons  ${created.addons.join(', ') || '-'}`,
    `origins  ${created.allowedOrigins.join(', ') || '(any)'}`,
    '',
    `API key  ${created.key}`,
    'This is the only time the key is shown; only its hash is stored.',
  ].join('\n'));
}

async function list(argv: string[], ctx: CommandContext): Promise<void> {
  const { positionals } = parseCommandArgs(argv, {}, USAGE);
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\nusage: canmap ${USAGE}`, 2);
  const keys = await withPool(ctx, listKeys);
  const rows = keys.map((k) => ({
    id: k.id,
    account: k.accountId,
    plan: k.plan,
    addons: k.addons,
    origins: k.allowedOrigins,
    created: k.createdAt.toISOString(),
    disabled: k.disabledAt?.toISOString() ?? null,
  }));
  ctx.out.result({ keys: rows }, () => table(
    ['id', 'account', 'plan', 'addons', 'origins', 'created', 'disabled'],
    rows.map((r) => [r.id, r.account, r.plan, r.addons.join(',') || null, r.origins.join(' ') || null, r.created, r.disabled]),
  ));
}

async function disable(argv: string[], ctx: CommandContext): Promise<void> {
  const { positionals } = parseCommandArgs(argv, {}, USAGE);
  if (positionals.length !== 1) throw new CliError(`expected one KEY_ID\nusage: canmap ${USAGE}`, 2);
  const id = positionals[0]!;
  const done = await withPool(ctx, (pool) => disableKey(pool, id));
  if (!done) throw new CliError(`no API key with id ${id} (see canmap keys list)`, 1);
  ctx.out.result({ id: done.id, disabled: done.disabledAt.toISOString() }, `disabled ${done.id}; the API stops accepting it within ${ctx.config.keyCacheTtlMs / 1000} s`);
}

async function setOrigins(argv: string[], ctx: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, { origin: { type: 'string', multiple: true } }, USAGE);
  if (positionals.length !== 1) throw new CliError(`expected one KEY_ID\nusage: canmap ${USAGE}`, 2);
  const id = positionals[0]!;
  const updated = await withPool(ctx, (pool) => setKeyOrigins(pool, id, values.origin ?? []));
  if (updated === 'unknown') throw new CliError(`no API key with id ${id} (see canmap keys list)`, 1);
  if (updated === 'disabled') throw new CliError(`API key ${id} is disabled; its origins cannot be changed`, 1);
  ctx.out.result(
    { id: updated.id, account: updated.accountId, plan: updated.plan, origins: updated.allowedOrigins },
    `key ${updated.id}: origins ${updated.allowedOrigins.join(', ') || '(any)'}; the API picks this up within ${ctx.config.keyCacheTtlMs / 1000} s`,
  );
}

const SUBCOMMANDS: Record<string, Subcommand> = { create, list, disable, 'set-origins': setOrigins };

export const keysCommand = withSubcommands({
  name: 'keys',
  summary: 'create, list and disable API keys and set their allowed origins (a new key is printed once; only its hash is stored)',
  usage: USAGE,
}, SUBCOMMANDS);
