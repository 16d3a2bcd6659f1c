import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { loadDefinition } from '../../ingest/catalog/definition.ts';
import { prepareCatalogRelease } from '../../ingest/catalog/release.ts';
import { InvalidInputError } from '../../ingest/errors.ts';
import { CATALOG_KIND } from '../../schemas/catalog-release.ts';
import type { IngestKind } from '../kind.ts';

export const CatalogPayload = Type.Object(
  {
    definition: Type.String({ pattern: '^/', description: 'absolute path of the catalog definition file' }),
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type CatalogPayload = Static<typeof CatalogPayload>;

/** A catalog definition (layers, rows, inputs) → one catalog release of tile archives and feature stores. */
export const catalogKind: IngestKind<CatalogPayload> = {
  kind: CATALOG_KIND,
  payloadSchema: CatalogPayload,
  cli: {
    usage: 'catalog --definition FILE',
    options: { definition: { type: 'string' } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give the definition with --definition FILE`);
      if (typeof values.definition !== 'string' || !values.definition) throw new InvalidInputError('--definition FILE is required (a catalog definition JSON file)');
      const { file } = await loadDefinition(path.resolve(values.definition));
      return { definition: file };
    },
  },
  jobKey: (payload) => payload.definition,
  prepare: (payload, ctx) =>
    prepareCatalogRelease(payload.definition, { workDir: ctx.workDir, onProgress: (fraction, message) => ctx.onProgress({ fraction, message }) }),
};
