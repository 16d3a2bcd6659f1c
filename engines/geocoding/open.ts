import type { Corpus } from './corpus.ts';
import { GeocoderEngine } from './engine.ts';
import { assembleIndex } from './index/assemble.ts';
import { readIndexFile } from './index/file.ts';
import { IndexView } from './index/view.ts';
import type { Geocoder } from './types.ts';

/** Opens a geocoding index file written by writeIndexFile (one read per section, no parsing). */
export async function openGeocoder(indexPath: string, releaseId: string): Promise<Geocoder> {
  return new GeocoderEngine(releaseId, new IndexView(await readIndexFile(indexPath)));
}

/** Assembles the index in memory (tests, small corpora). */
export function geocoderFromCorpus(corpus: Corpus, releaseId: string): Geocoder {
  return new GeocoderEngine(releaseId, new IndexView(assembleIndex(corpus)));
}
