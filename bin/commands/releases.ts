import type { Pool } from 'pg';
import { createPool } from '../../lib/postgres.ts';
import { kindNames } from '../../jobs/kinds/index.ts';
import { diffManifests } from '../../releases/diff.ts';
import { checkStoredRelease } from '../../releases/object-store/check-release.ts';
import { openReleaseBucket } from '../../releases/object-store/open-bucket.ts';
import type { ReleaseBucket } from '../../releases/object-store/s3-client.ts';
import { pruneReleases } from '../../releases/prune.ts';
import {
  enableRelease,
  getEnabledRelease,
  getRelease,
  listReleases,
  releaseHistory,
  ReleaseError,
  rollbackKind,
  type RegisteredRelease,
} from '../../releases/registry.ts';
import { ShrinkRefusedError } from '../../releases/shrink.ts';
import { verifyReleaseDir } from '../../releases/verify.ts';
import { cliActor } from '../actor.ts';
import { parseCommandArgs, rejectExtraArguments } from '../args.ts';
import type { Command, CommandContext } from '../command.ts';
import { KIND_ALIASES, resolveName, unknownNameError } from '../names.ts';
import { CliError, table } from '../output.ts';

const USAGE = 'releases list [--kind K] | show ID | enable ID [--allow-shrink] | rollback KIND | verify ID | prune --keep N [--kind K] [--dry-run] | diff A B';

/** How many positionals each subcommand takes. */
const ARITY: Record<string, number> = { list: 0, show: 1, enable: 1, rollback: 1, verify: 1, prune: 0, diff: 2 };

/** The kind as given (or its alias's target) when it is an ingest kind or has releases; else a usage error naming the valid ones. */
async function checkedKind(pool: Pool, kind: string): Promise<string> {
  const { rows } = await pool.query<{ kind: string }>('SELECT DISTINCT kind FROM releases');
  const valid = [...new Set([...kindNames(), ...rows.map((r) => r.kind)])].sort();
  const resolved = resolveName(kind, valid, KIND_ALIASES);
  if (!resolved) throw unknownNameError('kind', kind, valid);
  return resolved;
}

const optionalKind = async (pool: Pool, kind: unknown) => (typeof kind === 'string' ? checkedKind(pool, kind) : undefined);

/** A refused enable: what fell, and how to enable it anyway. */
function shrinkError(err: ShrinkRefusedError): CliError {
  return new CliError(`${err.message}\n  compare them: canmap releases diff ${err.enabledId} ${err.releaseId}\n  enable it anyway: canmap releases enable ${err.releaseId} --allow-shrink`);
}

async function mustGet(pool: Pool, id: string | undefined): Promise<RegisteredRelease> {
  if (!id) throw new CliError(`a release id is required\nusage: canmap ${USAGE}`, 2);
  const release = await getRelease(pool, id);
  if (!release) throw new CliError(`unknown release ${id}`);
  return release;
}

function summary(r: RegisteredRelease) {
  return { id: r.id, kind: r.kind, created_at: r.createdAt.toISOString(), path: r.path, content_hash: r.contentHash };
}

/** RELEASE_STORE (null without): enable and rollback check the store's copy, verify hashes it, prune deletes from it. */
type Sub = (pool: Pool, positionals: string[], values: Record<string, unknown>, ctx: CommandContext & { store: ReleaseBucket | null }) => Promise<number | void>;

const subcommands: Record<string, Sub> = {
  async list(pool, _p, values, { out }) {
    const releases = await listReleases(pool, await optionalKind(pool, values.kind));
    out.result(
      releases.map((r) => ({ ...summary(r), enabled: r.enabled, stats: r.manifest.stats })),
      () => table(['id', 'kind', 'created', 'enabled', 'artifacts', 'bytes'], releases.map((r) => [
        r.id, r.kind, r.createdAt.toISOString(), r.enabled ? 'yes' : '', r.manifest.artifacts.length,
        r.manifest.artifacts.reduce((n, a) => n + a.bytes, 0),
      ])),
    );
  },
  async show(pool, [id], _v, { out }) {
    const release = await mustGet(pool, id);
    const enabled = (await getEnabledRelease(pool, release.kind))?.id === release.id;
    const history = await releaseHistory(pool, release.kind, { releaseId: release.id });
    out.result({ ...summary(release), enabled, manifest: release.manifest, history }, () =>
      [
        `${release.id} (${release.kind})${enabled ? ' — enabled' : ''}`,
        `path     ${release.path}`,
        `created  ${release.manifest.created_at}   builder ${release.manifest.builder_version}   schema ${release.manifest.schema_version}`,
        '', 'inputs:', table(['name', 'sha256', 'source'], release.manifest.inputs.map((i) => [i.name, i.sha256.slice(0, 16), i.source])),
        '', 'artifacts:', table(['path', 'bytes', 'sha256'], release.manifest.artifacts.map((a) => [a.path, a.bytes, a.sha256.slice(0, 16)])),
        '', 'stats:', table(['stat', 'value'], Object.entries(release.manifest.stats).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : (v as string)])),
        '', 'history:', table(['at', 'action', 'release', 'previous', 'actor', 'note'], history.map((h) => [
          h.at.toISOString(), h.action, h.releaseId, h.previousReleaseId ?? '', h.actor, h.note ?? '',
        ])),
      ].join('\n'),
    );
  },
  async enable(pool, [id], values, { out, store }) {
    const release = await mustGet(pool, id);
    const before = (await getEnabledRelease(pool, release.kind))?.id ?? null;
    try {
      await enableRelease(pool, release.id, cliActor(), { allowShrink: values['allow-shrink'] === true, store });
    } catch (err) {
      throw err instanceof ShrinkRefusedError ? shrinkError(err) : err;
    }
    out.result({ kind: release.kind, enabled: release.id, previous: before }, `enabled ${release.kind} release ${release.id}${before && before !== release.id ? ` (was ${before})` : ''}`);
  },
  async rollback(pool, [kind], _v, { out, store }) {
    if (!kind) throw new CliError(`a kind is required\nusage: canmap ${USAGE}`, 2);
    kind = await checkedKind(pool, kind);
    const { from, to } = await rollbackKind(pool, kind, cliActor(), { store });
    out.result({ kind, enabled: to.id, previous: from }, `rolled ${kind} back from ${from} to ${to.id}`);
  },
  async verify(pool, [id], _v, { out, store }) {
    const release = await mustGet(pool, id);
    const check = store
      ? await checkStoredRelease(store, release, { hash: true })
      : await verifyReleaseDir(release.path, { expectedId: release.id, expectedManifest: release.manifest });
    const where = store ? ` in ${store.describe()}` : '';
    out.result({ id: release.id, ok: check.ok, problems: check.problems, ...(store ? { store: store.describe() } : {}) }, check.ok ? `${release.id}: ok${where} (${release.manifest.artifacts.length} artifacts match the manifest)` : `${release.id}: FAILED${where}\n${check.problems.map((p) => `  - ${p}`).join('\n')}`);
    return check.ok ? 0 : 1;
  },
  async prune(pool, _p, values, { out, store, config }) {
    const keepText = values.keep as string | undefined;
    if (keepText === undefined || !/^\d+$/.test(keepText)) throw new CliError(`--keep N is required (N ≥ 0)\nusage: canmap ${USAGE}`, 2);
    const result = await pruneReleases(pool, Number(keepText), {
      kind: await optionalKind(pool, values.kind),
      dryRun: values['dry-run'] === true,
      store: store && { bucket: store, releasesDir: config.releasesDir },
    });
    out.result({ ...result, dryRun: values['dry-run'] === true }, () =>
      [`${values['dry-run'] ? 'would remove' : 'removed'} ${result.removed.length} release(s)`,
        table(['id', 'kind'], result.removed.map((r) => [r.id, r.kind])), '', 'kept:', table(['id', 'kind', 'why'], result.kept.map((k) => [k.id, k.kind, k.why]))].join('\n'),
    );
  },
  async diff(pool, [a, b], _v, { out }) {
    if (!a || !b) throw new CliError(`two release ids are required\nusage: canmap ${USAGE}`, 2);
    const [ra, rb] = [await mustGet(pool, a), await mustGet(pool, b)];
    const changes = diffManifests(ra.manifest, rb.manifest);
    const show = (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v).slice(0, 60) : String(v));
    out.result({ a: ra.id, b: rb.id, changes }, () =>
      changes.length === 0 ? 'no differences' : table(['field', ra.id, rb.id, 'delta'], changes.map((c) => [c.field, show(c.a), show(c.b), c.delta ?? ''])),
    );
  },
};

export const releasesCommand: Command = {
  name: 'releases',
  summary: 'list, inspect, enable, roll back, verify, prune and compare releases',
  usage: USAGE,
  async run(argv, ctx) {
    const { positionals, values } = parseCommandArgs(argv, {
      kind: { type: 'string' }, keep: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'allow-shrink': { type: 'boolean' },
    }, USAGE);
    const [name, ...rest] = positionals;
    const sub = name && Object.hasOwn(subcommands, name) ? subcommands[name] : undefined;
    if (!name) throw new CliError(`a subcommand is required\nusage: canmap ${USAGE}`, 2);
    if (!sub) throw unknownNameError('subcommand', name, Object.keys(subcommands), `\nusage: canmap ${USAGE}`);
    rejectExtraArguments(rest, ARITY[name]!, USAGE);
    const pool = createPool(ctx.config.databaseUrl, 2);
    const store = await openReleaseBucket(ctx.config);
    try {
      return await sub(pool, rest, values, { ...ctx, store });
    } catch (err) {
      if (err instanceof ReleaseError) throw new CliError(err.message);
      throw err;
    } finally {
      store?.close();
      await pool.end();
    }
  },
};
