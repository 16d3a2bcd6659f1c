import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { checkInputPath } from '../../ingest/energy/csv-rows.ts';
import { prepareParcelsRelease } from '../../ingest/parcels/release.ts';
import { PARCELS_KIND } from '../../schemas/parcels-release.ts';
import type { IngestKind } from '../kind.ts';

const MAX_FILES = 100;

export const ParcelsPayload = Type.Object(
  {
    parcels: Type.Array(Type.String({ pattern: '^/', description: "absolute path of a ParcelMap BC parcel-fabric CSV (geometry as WKT, EPSG:4326)" }), {
      minItems: 1, maxItems: MAX_FILES, uniqueItems: true,
    }),
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ParcelsPayload = Static<typeof ParcelsPayload>;

/** ParcelMap BC parcel-fabric CSVs → one parcels release (BC PIDs). */
export const parcelsKind: IngestKind<ParcelsPayload> = {
  kind: PARCELS_KIND,
  payloadSchema: ParcelsPayload,
  cli: {
    usage: 'parcels --parcels FILE [--parcels FILE ...]   (FILE: ParcelMap BC parcel fabric as CSV, geometry WKT in EPSG:4326)',
    options: { parcels: { type: 'string', multiple: true } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give files as --parcels FILE`);
      // sorted and deduplicated: the same files in another order are the same job and the same release
      const parcels = [...new Set(((values.parcels as string[] | undefined) ?? []).map((file) => path.resolve(file)))].sort();
      if (parcels.length === 0) throw new InvalidInputError('--parcels FILE is required (a ParcelMap BC parcel-fabric CSV; repeat it for more files)');
      if (parcels.length > MAX_FILES) throw new InvalidInputError(`at most ${MAX_FILES} parcels files in one release`);
      for (const file of parcels) await checkInputPath('parcels', file);
      return { parcels };
    },
  },
  jobKey: (payload) => [...payload.parcels].sort().join('\n'),
  prepare: (payload) => prepareParcelsRelease([...payload.parcels].sort()),
};
