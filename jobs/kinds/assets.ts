import { Type, type Static } from '@sinclair/typebox';
import { InvalidInputError } from '../../ingest/errors.ts';
import { prepareAssetsRelease } from '../../ingest/assets/release.ts';
import { ASSETS_KIND } from '../../schemas/assets-release.ts';
import type { IngestKind } from '../kind.ts';

export const AssetsPayload = Type.Object({ enable: Type.Boolean() }, { additionalProperties: false });
export type AssetsPayload = Static<typeof AssetsPayload>;

/** Glyph ranges and sprite sheets from the installed font and icon packages → one assets release. */
export const assetsKind: IngestKind<AssetsPayload> = {
  kind: ASSETS_KIND,
  payloadSchema: AssetsPayload,
  cli: {
    usage: 'assets   (fonts and icons come from the installed npm packages)',
    options: {},
    async toPayload(positionals) {
      if (positionals.length) throw new InvalidInputError(`unexpected argument ${JSON.stringify(positionals[0])}; assets takes no options`);
      return {};
    },
  },
  jobKey: () => ASSETS_KIND,
  prepare: (_payload, ctx) => prepareAssetsRelease({ onProgress: (fraction, message) => ctx.onProgress({ fraction, message }) }),
};
