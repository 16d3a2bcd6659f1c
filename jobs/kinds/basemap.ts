import { access } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { prepareBasemapRelease } from '../../ingest/basemap/release.ts';
import { BASEMAP_KIND } from '../../schemas/basemap-release.ts';
import type { IngestKind } from '../kind.ts';

export const BasemapPayload = Type.Object(
  {
    pbf: Type.String({ pattern: '^/', description: 'absolute path of the OSM PBF extract' }),
    provinces: Type.String({ pattern: '^/', description: 'absolute path of the province and territory outlines (GeoJSON)' }),
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type BasemapPayload = Static<typeof BasemapPayload>;

async function existingFile(option: string, value: unknown, what: string): Promise<string> {
  if (typeof value !== 'string' || !value) throw new InvalidInputError(`--${option} FILE is required (${what})`);
  const file = path.resolve(value);
  await access(file).catch(() => {
    throw new InvalidInputError(`--${option} ${value}: no such file`);
  });
  return file;
}

/** An OSM extract + province outlines (+ Natural Earth and GeoNames from npm) → one basemap release. */
export const basemapKind: IngestKind<BasemapPayload> = {
  kind: BASEMAP_KIND,
  payloadSchema: BasemapPayload,
  cli: {
    usage: 'basemap --pbf FILE --provinces FILE',
    options: { pbf: { type: 'string' }, provinces: { type: 'string' } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give the inputs with --pbf FILE --provinces FILE`);
      return {
        pbf: await existingFile('pbf', values.pbf, 'an OSM PBF extract'),
        provinces: await existingFile('provinces', values.provinces, 'a GeoJSON of province and territory outlines with a name property'),
      };
    },
  },
  jobKey: (payload) => `${payload.pbf}|${payload.provinces}`,
  prepare: (payload, ctx) =>
    prepareBasemapRelease(payload, {
      workDir: ctx.workDir,
      memoryMb: ctx.config.basemapBuildMemoryMb,
      tempDir: ctx.config.basemapBuildTempDir,
      onProgress: (fraction, message) => ctx.onProgress({ fraction, message }),
    }),
};
