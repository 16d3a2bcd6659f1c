import path from 'node:path';
import type { KindOpener } from '../../releases/reader.ts';
import { openGeocoder } from './open.ts';
import type { Geocoder } from './types.ts';
import { GEOCODER_INDEX_FILE, GEOCODING_KIND } from '../../schemas/geocoding-release.ts';


/** The release-kind opener the API's release store uses for kind 'geocoding'. */
export const geocodingOpener: KindOpener<Geocoder> = {
  kind: GEOCODING_KIND,
  open: (dir, manifest) => openGeocoder(path.join(dir, GEOCODER_INDEX_FILE), manifest.id),
  // The index lives in memory: dropping the reference frees it.
  close: async (_geocoder: Geocoder): Promise<void> => {},
};
