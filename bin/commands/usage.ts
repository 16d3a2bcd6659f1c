import { monthUsage, UsageInputError } from '../../io/access/usage.ts';
import { utcMonth } from '../../lib/utc-calendar.ts';
import { createPool } from '../../lib/postgres.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command } from '../command.ts';
import { CliError, table } from '../output.ts';

const USAGE = 'usage [--account ACCOUNT] [--key KEY_ID] [--month YYYY-MM]';

export const usageCommand: Command = {
  name: 'usage',
  summary: 'metered calls per day and endpoint family of a UTC month (dev-origin calls as dev:<family>, never billed)',
  usage: USAGE,
  async run(argv, ctx) {
    const { values, positionals } = parseCommandArgs(argv, {
      account: { type: 'string' },
      key: { type: 'string' },
      month: { type: 'string' },
    }, USAGE);
    if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\nusage: canmap ${USAGE}`, 2);
    const month = values.month ?? utcMonth(Date.now());
    const pool = createPool(ctx.config.databaseUrl, 2);
    let usage;
    try {
      usage = await monthUsage(pool, { accountId: values.account, keyId: values.key, month });
    } catch (err) {
      if (err instanceof UsageInputError) throw new CliError(`${err.message}\nusage: canmap ${USAGE}`, 2);
      throw err;
    } finally {
      await pool.end();
    }
    const result = { account: values.account ?? null, key: values.key ?? null, ...usage };
    ctx.out.result(result, () => {
      const lines = usage.rows.flatMap((r) => [
        ...(r.calls ? [[r.day, r.family, r.calls]] : []),
        ...(r.devCalls ? [[r.day, `dev:${r.family}`, r.devCalls]] : []),
      ]);
      const scope = [values.account && `account ${values.account}`, values.key && `key ${values.key}`].filter(Boolean).join(', ') || 'all keys';
      return [
        `${month} (${usage.from} to ${usage.to} UTC), ${scope}`,
        table(['day', 'family', 'calls'], lines),
        '',
        `billable calls  ${usage.totals.billable}`,
        `dev calls       ${usage.totals.dev} (not billed)`,
      ].join('\n');
    });
  },
};
