import { GEOCODING_KIND } from '../../schemas/geocoding-release.ts';
import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { GEOCODING_INPUT_KINDS, GeocodingInput, orderInputs, parseInputSpec } from '../../ingest/geocoding/inputs.ts';
import { prepareGeocodingRelease } from '../../ingest/geocoding/release.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import type { IngestKind } from '../kind.ts';

export const GeocodingPayload = Type.Object(
  {
    inputs: Type.Array(GeocodingInput, { minItems: 1 }),
    enable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type GeocodingPayload = Static<typeof GeocodingPayload>;

/** Address, OSM, locality and region files → one geocoding release. */
export const geocodingKind: IngestKind<GeocodingPayload> = {
  kind: GEOCODING_KIND,
  payloadSchema: GeocodingPayload,
  cli: {
    usage: `geocoding --input KIND:PATH [--input KIND:PATH ...]   (KIND: ${GEOCODING_INPUT_KINDS.join(', ')})`,
    options: { input: { type: 'string', multiple: true } },
    async toPayload(positionals, values) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; give inputs as --input KIND:PATH`);
      const specs = (values.input as string[] | undefined) ?? [];
      const inputs = await Promise.all(specs.map((spec) => parseInputSpec(spec)));
      return { inputs: orderInputs(inputs) };
    },
  },
  jobKey: (payload) => canonicalJson(payload.inputs),
  prepare(payload, ctx) {
    return prepareGeocodingRelease(payload.inputs, {
      workDir: ctx.workDir,
      heapMb: ctx.config.geocodingBuildHeapMb,
      onProgress: (fraction, message) => ctx.onProgress({ fraction, message }),
    });
  },
};
