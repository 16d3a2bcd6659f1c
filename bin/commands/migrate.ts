import { migrate } from '../../lib/migrate.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs, rejectExtraArguments } from '../args.ts';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'create the database if needed and apply pending SQL migrations (safe to run twice)',
  usage: 'migrate',
  async run(argv, { config, out }) {
    rejectExtraArguments(parseCommandArgs(argv, {}, this.usage).positionals, 0, this.usage);
    const result = await migrate(config.databaseUrl);
    out.result(result, () =>
      [
        result.created ? `created database ${result.database}` : `database ${result.database}`,
        result.applied.length ? `applied ${result.applied.join(', ')}` : 'already up to date',
        `schema at ${result.current ?? '(no migrations)'}`,
      ].join('\n'),
    );
  },
};
