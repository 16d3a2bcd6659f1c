import {
  AccountExistsError, AccountNotFoundError, accountUsage, changeAddons, createAccount, getAccount,
  paymentFailed, paymentOk, setPlan, setSpendCap, type AccountView,
} from '../../io/access/accounts.ts';
import { describeChange, runEnforcement, type BlockChange } from '../../io/access/enforcement-run.ts';
import { parseAddons, parsePlan, parseSpendCap } from '../../engines/access/plans.ts';
import { issueLoginToken, LOGIN_TOKEN_TTL_MS } from '../../io/access/sessions.ts';
import { KeyInputError } from '../../lib/keys.ts';
import type { Pool } from '../../lib/postgres.ts';
import type { Plan } from '../../schemas/plans.ts';
import { parseCommandArgs } from '../args.ts';
import { withSubcommands, type CommandContext, type Subcommand, withPool as withCommandPool, type ReportedError } from '../command.ts';
import { CliError, table } from '../output.ts';

const USAGE = 'accounts create [--plan dev|indie|growth] [--id ID] | show ID | set-plan ID PLAN | set-spend-cap ID AMOUNT'
  + ' | addons ID [--add a,b] [--remove c] | payment-failed ID | payment-ok ID | enforce --once'
  + ' | login-link ID [--ttl-minutes N]';

type Handler = Subcommand;

const REPORTED: readonly ReportedError[] = [[KeyInputError, 2], [AccountNotFoundError, 1], [AccountExistsError, 1]];
const withPool = <T>(ctx: CommandContext, fn: (pool: Pool) => Promise<T>) => withCommandPool(ctx, fn, REPORTED);

function parse<O extends Parameters<typeof parseCommandArgs>[1]>(argv: string[], options: O, positionals: number, what: string) {
  const parsed = parseCommandArgs(argv, options, USAGE);
  if (parsed.positionals.length !== positionals) throw new CliError(`expected ${what}\nusage: canmap ${USAGE}`, 2);
  return parsed;
}

function input<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof KeyInputError) throw new CliError(err.message, 2);
    throw err;
  }
}

const planName = (plan: Plan) => (plan === 'hobby' ? 'dev' : plan);

function accountJson(a: AccountView) {
  return {
    id: a.id,
    plan: a.plan,
    addons: a.addons,
    spendCap: a.spendCap,
    paymentFailedAt: a.paymentFailedAt?.toISOString() ?? null,
    block: a.block ? { state: a.block.state, since: a.block.since.toISOString(), month: a.block.month } : null,
    keys: a.keys.map((k) => ({ id: k.id, created: k.createdAt.toISOString(), disabled: k.disabledAt?.toISOString() ?? null })),
  };
}

const changesJson = (changes: BlockChange[]) => changes.map((c) => ({ account: c.accountId, from: c.from, to: c.to, billableCalls: c.billableCalls, premiumCalls: c.premiumCalls, month: c.month }));

const create: Handler = async (argv, ctx) => {
  const { values } = parse(argv, { plan: { type: 'string' }, id: { type: 'string' } }, 0, 'no arguments besides --plan and --id');
  const plan = values.plan === undefined ? undefined : input(() => parsePlan(values.plan!));
  const account = await withPool(ctx, (pool) => createAccount(pool, { id: values.id, plan }));
  ctx.out.result(accountJson(account), `created account ${account.id} (plan ${planName(account.plan)}, spend cap ${account.spendCap.toFixed(2)})`);
};

const show: Handler = async (argv, ctx) => {
  const { positionals } = parse(argv, {}, 1, 'one account ID');
  const id = positionals[0]!;
  const { account, usage } = await withPool(ctx, async (pool) => {
    const found = await getAccount(pool, id);
    if (!found) throw new AccountNotFoundError(id);
    return { account: found, usage: await accountUsage(pool, found, new Date()) };
  });
  ctx.out.result({ ...accountJson(account), usage }, () => [
    `account      ${account.id}`,
    `plan         ${planName(account.plan)}`,
    `add-ons      ${account.addons.join(', ') || '-'}`,
    `spend cap    ${account.spendCap.toFixed(2)}`,
    `payment      ${account.paymentFailedAt ? `failed ${account.paymentFailedAt.toISOString()}` : 'ok'}`,
    `state        ${account.block ? `blocked: ${account.block.state} since ${account.block.since.toISOString()}` : 'active'}`,
    `usage ${usage.month}  ${usage.billable} billable of ${usage.includedCalls} included, ${usage.dev} dev, ${usage.premium} premium; overage ${usage.overage.toFixed(2)}`,
    '',
    table(['key', 'created', 'disabled'], account.keys.map((k) => [k.id, k.createdAt.toISOString(), k.disabledAt?.toISOString()])),
  ].join('\n'));
};

const LAG = 'blocks follow at the next enforcement run';

const setPlanCommand: Handler = async (argv, ctx) => {
  const { positionals } = parse(argv, {}, 2, 'an account ID and a plan');
  const [id, planInput] = positionals as [string, string];
  const plan = input(() => parsePlan(planInput));
  const over = await withPool(ctx, (pool) => setPlan(pool, id, plan));
  // The JSON document keeps its old shape unless there is something to warn about.
  const json = over.length ? { id, plan, keysOverOriginAllowance: over } : { id, plan };
  ctx.out.result(json, () => [
    `account ${id}: plan ${planName(plan)}; ${LAG}`,
    ...over.map((k) => `warning: key ${k.keyId} lists more production origins than the ${planName(plan)} plan allows;`
      + ` no longer honoured (403 origin_not_allowed): ${k.notHonoured.join(', ')}`),
  ].join('\n'));
};

const setSpendCapCommand: Handler = async (argv, ctx) => {
  const { positionals } = parse(argv, {}, 2, 'an account ID and an amount');
  const [id, amountInput] = positionals as [string, string];
  const amount = input(() => parseSpendCap(amountInput));
  await withPool(ctx, (pool) => setSpendCap(pool, id, amount));
  ctx.out.result({ id, spendCap: amount }, `account ${id}: spend cap ${amount.toFixed(2)}; ${LAG}`);
};

const addons: Handler = async (argv, ctx) => {
  const { positionals, values } = parse(argv, { add: { type: 'string', multiple: true }, remove: { type: 'string', multiple: true } }, 1, 'one account ID');
  if (!values.add && !values.remove) throw new CliError(`give --add or --remove\nusage: canmap ${USAGE}`, 2);
  const add = input(() => parseAddons(values.add ?? []));
  const remove = input(() => parseAddons(values.remove ?? []));
  const id = positionals[0]!;
  const after = await withPool(ctx, (pool) => changeAddons(pool, id, add, remove));
  ctx.out.result({ id, addons: after }, `account ${id}: add-ons ${after.join(', ') || '-'} (keys pick this up within ${ctx.config.keyCacheTtlMs / 1000} s)`);
};

function payment(outcome: 'failed' | 'ok'): Handler {
  return async (argv, ctx) => {
    const { positionals } = parse(argv, {}, 1, 'one account ID');
    const id = positionals[0]!;
    const changes = await withPool(ctx, async (pool) => {
      const found = await getAccount(pool, id);
      if (!found) throw new AccountNotFoundError(id);
      if (outcome === 'failed' && found.plan === 'hobby') throw new CliError(`account ${id} is on the dev plan, which has no payments`, 1);
      return (outcome === 'failed' ? paymentFailed : paymentOk)(pool, id, new Date());
    });
    const state = changes[0] ? (changes[0].to ?? 'active') : 'unchanged';
    ctx.out.result({ id, payment: outcome, changes: changesJson(changes) }, `account ${id}: payment ${outcome}; state ${state} (keys follow within ${ctx.config.keyCacheTtlMs / 1000} s)`);
  };
}

const enforce: Handler = async (argv, ctx) => {
  const { values } = parse(argv, { once: { type: 'boolean' } }, 0, 'no arguments');
  if (!values.once) throw new CliError(`enforce needs --once (canmap worker runs it every ENFORCEMENT_INTERVAL_SECONDS)\nusage: canmap ${USAGE}`, 2);
  const { accounts, changes } = await withPool(ctx, (pool) => runEnforcement(pool));
  ctx.out.result({ accounts, changes: changesJson(changes) }, () => [`${accounts} accounts, ${changes.length} changed`, ...changes.map(describeChange)].join('\n'));
};

const MAX_LINK_MINUTES = 24 * 60;

/** A one-time dashboard login link (GET /account/login) for the account's owner. */
const loginLink: Handler = async (argv, ctx) => {
  const { positionals, values } = parse(argv, { 'ttl-minutes': { type: 'string' } }, 1, 'one account ID');
  const id = positionals[0]!;
  const minutesInput = values['ttl-minutes'];
  const minutes = minutesInput === undefined ? LOGIN_TOKEN_TTL_MS / 60_000 : Number(minutesInput);
  if (minutesInput !== undefined && !(/^\d+$/.test(minutesInput) && minutes >= 1 && minutes <= MAX_LINK_MINUTES)) {
    throw new CliError(`--ttl-minutes must be a whole number of minutes from 1 to ${MAX_LINK_MINUTES}, got "${minutesInput}"`, 2);
  }
  const { token, expiresAt } = await withPool(ctx, (pool) => issueLoginToken(pool, id, Date.now(), minutes * 60_000));
  const url = `${ctx.config.baseUrl}/account/login?token=${token}`;
  ctx.out.result({ account: id, url, expiresAt: expiresAt.toISOString() },
    `login link for account ${id} (works once, expires ${expiresAt.toISOString()}):\n${url}`);
};

const SUBCOMMANDS: Record<string, Handler> = {
  create,
  show,
  'set-plan': setPlanCommand,
  'set-spend-cap': setSpendCapCommand,
  addons,
  'payment-failed': payment('failed'),
  'payment-ok': payment('ok'),
  enforce,
  'login-link': loginLink,
};

export const accountsCommand = withSubcommands({
  name: 'accounts',
  summary: 'create and show accounts, change plan, spend cap, add-ons and payment state; run plan enforcement once; issue dashboard login links',
  usage: USAGE,
}, SUBCOMMANDS);
