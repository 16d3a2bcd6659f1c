import type { EnergyCorpus } from '../../engines/energy/release.ts';
import type { GeocodeResult, Geocoder } from '../../engines/geocoding/types.ts';
import type { FreeText } from '../../engines/grammars/free-text.ts';
import { parseFreeText, type ParsedGrammar } from '../../engines/grammars/parse.ts';
import { corpusOf, energySearch, grammarSearch, type GrammarScope } from '../../engines/grammars/search.ts';
import type { ParcelCorpus } from '../../engines/parcels/release.ts';
import { QueryError } from '../../lib/query-error.ts';
import type { ReleaseStore } from '../../releases/reader.ts';
import { ENERGY_KIND } from '../../schemas/energy-release.ts';
import { GEOCODING_KIND } from '../../schemas/geocoding-release.ts';
import { PARCELS_KIND } from '../../schemas/parcels-release.ts';
import { errors } from '../../lib/errors.ts';
import type { SanitizedSearchControls } from './requests.ts';

interface Sources {
  geocoding?: Geocoder;
  energy?: EnergyCorpus;
  parcels?: ParcelCorpus;
}

const KIND_OF = { geocoding: GEOCODING_KIND, energy: ENERGY_KIND, parcels: PARCELS_KIND } as const;

/** Holds each release kind named for the whole of `fn` (one `use` inside the other). */
async function useReleases<T>(releases: ReleaseStore, kinds: readonly (keyof Sources)[], fn: (sources: Sources) => T): Promise<T> {
  const sources: Sources = {};
  const step = async (i: number): Promise<T> => {
    const kind = kinds[i];
    if (kind === undefined) return fn(sources);
    return releases.use(KIND_OF[kind], async (resource: never) => {
      sources[kind] = resource;
      return step(i + 1);
    });
  };
  return step(0);
}

/** A 400 naming the query (batch: its index) and the part at fault. */
function asBadRequest<T>(label: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof QueryError) throw errors.badRequest(`${label}${err.message}`);
    throw err;
  }
}

/**
 * Free text as GET /geocode/search and each batch entry answer it (volume 2, "Query routing for
 * free text"): a land description, well identifier or parcel id goes to its grammar (gated by
 * the access table before this runs, on the same reading of the text), well/facility layers to
 * the energy corpus, the rest to the geocoder. `texts[i]` null (a blank batch entry) answers [].
 * Only the releases the queries need are held: a land description answers without any.
 */
export async function freeTextSearch(
  releases: ReleaseStore,
  texts: readonly (FreeText | null)[],
  { controls, energy, empty }: SanitizedSearchControls,
  options: {
    geometry: boolean;
    label: (index: number) => string;
    /** What the geocoder answers for civic text (autocomplete passes its own); default: search. */
    civic?: (geocoder: Geocoder, q: string) => GeocodeResult[];
  },
): Promise<GeocodeResult[][]> {
  if (empty) return texts.map(() => []);
  const parsed: (ParsedGrammar | null)[] = texts.map((q, i) => (q === null ? null : asBadRequest(options.label(i), () => parseFreeText(q))));
  const needs = new Set<keyof Sources>();
  texts.forEach((q, i) => {
    const grammar = parsed[i];
    if (grammar) {
      const corpus = corpusOf(grammar);
      if (corpus) needs.add(corpus);
    } else if (q !== null) needs.add(energy ? 'energy' : 'geocoding');
  });
  const scope: GrammarScope = {
    layers: energy ? new Set(energy) : controls.layers ? new Set(controls.layers) : null,
    ...(controls.bbox ? { bbox: controls.bbox } : {}),
    ...(controls.region ? { region: controls.region } : {}),
    limit: controls.limit,
    geometry: options.geometry,
  };
  const kinds = (['geocoding', 'energy', 'parcels'] as const).filter((k) => needs.has(k));
  return useReleases(releases, kinds, (sources) => texts.map((q, i) => {
    const grammar = parsed[i];
    if (q === null) return [];
    if (grammar) return grammarSearch(grammar, scope, sources);
    if (energy) return asBadRequest(options.label(i), () => energySearch(q.text, energy, scope, sources.energy!));
    const civic = options.civic ?? ((geocoder: Geocoder, text: string) => geocoder.search(text, controls));
    return asBadRequest(options.label(i), () => civic(sources.geocoding!, q.text));
  }));
}
