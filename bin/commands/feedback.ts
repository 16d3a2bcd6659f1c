import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { reportFixture } from '../../engines/feedback/fixture.ts';
import { isFeedbackStatus, nextStatuses, refusedMove } from '../../engines/feedback/status.ts';
import { getReport, listReports, setReportStatus, type StoredReport } from '../../io/feedback/store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { FEEDBACK_PRODUCTS, FEEDBACK_STATUSES, type FeedbackProduct } from '../../schemas/feedback-api.ts';
import { cliActor } from '../actor.ts';
import { parseCommandArgs } from '../args.ts';
import type { Command, CommandContext } from '../command.ts';
import { CliError, table } from '../output.ts';

const USAGE = 'feedback list [--status S] [--product P] [--limit N] | show ID | set-status ID STATUS [--note TEXT] | export ID [--out FILE] [--force]';
/** Where `export` writes without --out, relative to the working directory (the repository root). */
export const FIXTURE_DIR = 'test/fixtures/feedback';
const DEFAULT_LIST_LIMIT = 50;

const usageError = (message: string) => new CliError(`${message}\nusage: canmap ${USAGE}`, 2);

function json(r: StoredReport) {
  return {
    id: r.id,
    product: r.product,
    category: r.category,
    status: r.status,
    description: r.description,
    result_id: r.result_id,
    context: r.context,
    created_at: r.created_at.toISOString(),
    reviewed_at: r.reviewed_at?.toISOString() ?? null,
    reviewed_by: r.reviewed_by,
    note: r.note,
  };
}

const oneLine = (text: string | null, max = 60) => {
  if (text === null) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

async function mustGet(pool: Pool, id: string | undefined): Promise<StoredReport> {
  if (!id) throw usageError('a feedback id is required');
  const report = await getReport(pool, id);
  if (!report) throw new CliError(`no feedback report ${id} (see canmap feedback list)`);
  return report;
}

type Values = Record<string, string | boolean | undefined>;
type Sub = (pool: Pool, positionals: string[], values: Values, ctx: CommandContext) => Promise<void>;

const subcommands: Record<string, Sub> = {
  async list(pool, positionals, values, { out }) {
    if (positionals.length) throw usageError(`unexpected argument "${positionals[0]}"`);
    const status = values.status as string | undefined;
    if (status !== undefined && !isFeedbackStatus(status)) throw usageError(`--status must be one of ${FEEDBACK_STATUSES.join(', ')}`);
    const product = values.product as string | undefined;
    if (product !== undefined && !(FEEDBACK_PRODUCTS as readonly string[]).includes(product)) {
      throw usageError(`--product must be one of ${FEEDBACK_PRODUCTS.join(', ')}`);
    }
    const limitText = (values.limit as string | undefined) ?? String(DEFAULT_LIST_LIMIT);
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1) throw usageError('--limit must be a whole number of at least 1');
    const reports = await listReports(pool, { status, product: product as FeedbackProduct | undefined, limit: Number(limitText) });
    out.result({ reports: reports.map(json) }, () => table(
      ['id', 'status', 'product', 'category', 'result_id', 'description', 'created'],
      reports.map((r) => [r.id, r.status, r.product, r.category, oneLine(r.result_id, 40), oneLine(r.description), r.created_at.toISOString()]),
    ));
  },

  async show(pool, [id, ...rest], _values, { out }) {
    if (rest.length) throw usageError(`unexpected argument "${rest[0]}"`);
    const report = await mustGet(pool, id);
    const moves = nextStatuses(report.status);
    out.result({ ...json(report), next_statuses: moves }, () => [
      `${report.id}  ${report.status}`,
      `product      ${report.product}`,
      `category     ${report.category}`,
      `result_id    ${report.result_id ?? '-'}`,
      `created      ${report.created_at.toISOString()}`,
      `reviewed     ${report.reviewed_at ? `${report.reviewed_at.toISOString()} by ${report.reviewed_by}` : '-'}`,
      `note         ${report.note ?? '-'}`,
      `next status  ${moves.join(', ') || '(none: reviewed)'}`,
      '', 'description:', report.description ?? '-',
      '', 'context:', report.context ? JSON.stringify(report.context, null, 2) : '(not stored)',
    ].join('\n'));
  },

  async 'set-status'(pool, [id, to, ...rest], values, { out }) {
    if (!id || !to) throw usageError('set-status needs a feedback id and a status');
    if (rest.length) throw usageError(`unexpected argument "${rest[0]}"`);
    if (!isFeedbackStatus(to)) throw usageError(`unknown status "${to}": one of ${FEEDBACK_STATUSES.join(', ')}`);
    const note = (values.note as string | undefined) ?? null;
    const moved = await setReportStatus(pool, id, to, { actor: cliActor(), note, nowMs: Date.now() });
    if (!moved.ok) {
      if (moved.reason === 'unknown') throw new CliError(`no feedback report ${id} (see canmap feedback list)`);
      throw new CliError(refusedMove(id, moved.from, to));
    }
    out.result(json(moved.report), `${id}: new → ${to}${to === 'confirmed' ? `; export it as a test fixture with canmap feedback export ${id}` : ''}`);
  },

  async export(pool, [id, ...rest], values, { out }) {
    if (rest.length) throw usageError(`unexpected argument "${rest[0]}"`);
    const report = await mustGet(pool, id);
    if (report.status !== 'confirmed') {
      throw new CliError(`feedback ${report.id} is ${report.status}: only a confirmed report can be exported as a fixture`);
    }
    const file = path.resolve((values.out as string | undefined) ?? path.join(FIXTURE_DIR, `${report.id}.json`));
    const fixture = reportFixture(report, Date.now());
    await mkdir(path.dirname(file), { recursive: true });
    try {
      await writeFile(file, `${JSON.stringify(fixture, null, 2)}\n`, { flag: values.force === true ? 'w' : 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new CliError(`${file} exists; pass --force to overwrite it`);
      throw err;
    }
    out.result({ id: report.id, file }, `wrote ${file}`);
  },
};

export const feedbackCommand: Command = {
  name: 'feedback',
  summary: 'review feedback reports: list, show, set a review status (new → confirmed, needs-source-fix, ...), export a confirmed one as a test fixture',
  usage: USAGE,
  async run(argv, ctx) {
    const { positionals, values } = parseCommandArgs(argv, {
      status: { type: 'string' },
      product: { type: 'string' },
      limit: { type: 'string' },
      note: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
    }, USAGE);
    const [name, ...rest] = positionals;
    const sub = name ? subcommands[name] : undefined;
    if (!sub) throw usageError(name ? `unknown subcommand "${name}"` : 'a subcommand is required');
    const pool = createPool(ctx.config.databaseUrl, 2);
    try {
      await sub(pool, rest, values, ctx);
    } finally {
      await pool.end();
    }
  },
};
