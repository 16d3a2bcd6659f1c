import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { checkInputPath } from '../../ingest/energy/csv-rows.ts';
import { prepareEnergyRelease } from '../../ingest/energy/release.ts';
import { ENERGY_KIND } from '../../schemas/energy-release.ts';
import type { IngestKind } from '../kind.ts';

const MAX_FILES = 100;
const files = (description: string) =>
  Type.Array(Type.String({ pattern: '^/', description }), { maxItems: MAX_FILES, uniqueItems: true });

export const EnergyPayload = Type.Object(
  {
    wells: files('absolute path of a wells CSV: AER ST37 or BCER well-list form'),
    facilities: files('absolute path of a facilities CSV: AER ST102 form'),
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type EnergyPayload = Static<typeof EnergyPayload>;

/** Sorted and deduplicated: the same files in another order are the same job and the same release. */
const resolved = (given: unknown) => [...new Set(((given as string[] | undefined) ?? []).map((file) => path.resolve(file)))].sort();

/** Well and facility CSVs of the provincial registries → one energy release. */
export const energyKind: IngestKind<EnergyPayload> = {
  kind: ENERGY_KIND,
  payloadSchema: EnergyPayload,
  cli: {
    usage: 'energy --wells FILE [--wells FILE ...] [--facilities FILE ...]   (CSV: AER ST37 or BCER wells, AER ST102 facilities)',
    options: { wells: { type: 'string', multiple: true }, facilities: { type: 'string', multiple: true } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give files as --wells FILE or --facilities FILE`);
      const wells = resolved(values.wells);
      const facilities = resolved(values.facilities);
      if (wells.length === 0 && facilities.length === 0) throw new InvalidInputError('--wells FILE or --facilities FILE is required (repeat them for more files)');
      if (wells.length + facilities.length > MAX_FILES) throw new InvalidInputError(`at most ${MAX_FILES} files in one release`);
      for (const file of wells) await checkInputPath('wells', file);
      for (const file of facilities) await checkInputPath('facilities', file);
      return { wells, facilities };
    },
  },
  jobKey: (payload) => [...payload.wells.map((f) => `wells:${f}`), ...payload.facilities.map((f) => `facilities:${f}`)].sort().join('\n'),
  prepare: (payload) => prepareEnergyRelease({ wells: [...payload.wells].sort(), facilities: [...payload.facilities].sort() }),
};
