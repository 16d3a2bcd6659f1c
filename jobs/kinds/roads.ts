import { access } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { enabledTerrainDem } from '../../ingest/roads/terrain-dem.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import type { IngestKind } from '../kind.ts';

export const RoadsPayload = Type.Object(
  {
    osm: Type.String({ pattern: '^/', description: 'absolute path of the OSM extract (PBF, or XML .osm / .osm.gz)' }),
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type RoadsPayload = Static<typeof RoadsPayload>;

/**
 * An OSM extract → one roads release (the road graph the routing engine searches), its edges
 * graded with the DEM of the terrain release enabled when the job runs, if any.
 */
export const roadsKind: IngestKind<RoadsPayload> = {
  kind: ROADS_KIND,
  payloadSchema: RoadsPayload,
  cli: {
    usage: 'roads --osm FILE',
    options: { osm: { type: 'string' } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give the extract with --osm FILE`);
      if (typeof values.osm !== 'string' || !values.osm) throw new InvalidInputError('--osm FILE is required (an OSM extract, PBF or XML)');
      const file = path.resolve(values.osm);
      await access(file).catch(() => {
        throw new InvalidInputError(`--osm ${values.osm}: no such file`);
      });
      return { osm: file };
    },
  },
  jobKey: (payload) => payload.osm,
  prepare: async (payload, ctx) =>
    prepareRoadsRelease(payload.osm, {
      dem: await enabledTerrainDem(ctx.config),
      memoryBudgetMb: ctx.config.roadsBuildMemoryMb,
      onProgress: (fraction, message) => ctx.onProgress({ fraction, message }),
    }),
};
