import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { checkDemPath } from '../../ingest/terrain/inputs.ts';
import { prepareTerrainRelease } from '../../ingest/terrain/release.ts';
import { TERRAIN_KIND } from '../../schemas/terrain-release.ts';
import type { IngestKind } from '../kind.ts';

/** More tiles than Canada's land needs at 1″ would be a mistake in the command, not a build. */
const MAX_DEM_FILES = 5000;

export const TerrainPayload = Type.Object(
  {
    dem: Type.Array(Type.String({ pattern: '^/', description: 'absolute path of an SRTM .hgt, .hgt.gz or zip of .hgt files' }), {
      minItems: 1, maxItems: MAX_DEM_FILES, uniqueItems: true,
    }),
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type TerrainPayload = Static<typeof TerrainPayload>;

/** SRTM DEM files → one terrain release: terrarium tiles, contour tiles and the DEM for /elevation. */
export const terrainKind: IngestKind<TerrainPayload> = {
  kind: TERRAIN_KIND,
  payloadSchema: TerrainPayload,
  cli: {
    usage: 'terrain --dem FILE [--dem FILE ...]   (FILE: SRTM .hgt, .hgt.gz or a .zip of .hgt files)',
    options: { dem: { type: 'string', multiple: true } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give DEM files as --dem FILE`);
      const given = (values.dem as string[] | undefined) ?? [];
      if (given.length === 0) throw new InvalidInputError('--dem FILE is required (an SRTM .hgt, .hgt.gz or .zip of .hgt files; repeat it for more tiles)');
      // sorted and deduplicated: the same files in another order are the same job and the same release
      const dem = [...new Set(given.map((file) => path.resolve(file)))].sort();
      if (dem.length > MAX_DEM_FILES) throw new InvalidInputError(`at most ${MAX_DEM_FILES} DEM files in one release (got ${dem.length})`);
      for (const file of dem) await checkDemPath(file);
      return { dem };
    },
  },
  jobKey: (payload) => [...payload.dem].sort().join('\n'),
  prepare: (payload, ctx) =>
    prepareTerrainRelease([...payload.dem].sort(), { onProgress: (fraction, message) => ctx.onProgress({ fraction, message }) }),
};
