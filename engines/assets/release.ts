import type { KindOpener } from '../../releases/reader.ts';
import { ASSETS_KIND } from '../../schemas/assets-release.ts';
import { Assets } from './assets.ts';

/** The release-kind opener the API's release store uses for kind 'assets' (glyphs and sprites). */
export const assetsOpener: KindOpener<Assets> = {
  kind: ASSETS_KIND,
  open: (dir, manifest) => Assets.open(dir, manifest.id),
  close: async () => {}, // everything is in memory
};
