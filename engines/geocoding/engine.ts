import { autocomplete } from './autocomplete.ts';
import { EngineContext } from './context.ts';
import type { IndexView } from './index/view.ts';
import { nearby } from './nearby.ts';
import { placeById, placesNearby, placesSearch, type PlacesSearchControls } from './places.ts';
import { reverse } from './reverse.ts';
import { search } from './search.ts';
import { structured } from './structured.ts';
import type {
  CategoryResolution, GeocodeResult, Geocoder, NearbyInput, PlaceRecord, ReverseInput, SearchControls, StructuredInput,
} from './types.ts';

/** The Geocoder over one loaded index (all queries are synchronous and read-only). */
export class GeocoderEngine implements Geocoder {
  private readonly ctx: EngineContext;
  readonly attribution: string;
  readonly hasCategories: boolean;

  constructor(readonly releaseId: string, view: IndexView) {
    this.ctx = new EngineContext(view);
    this.attribution = attributionText(view.meta.sources, view.meta.attribution);
    this.hasCategories = view.meta.taxonomy.length > 0;
  }

  search(q: string, controls: SearchControls): GeocodeResult[] {
    return search(this.ctx, q, controls);
  }

  structured(input: StructuredInput, controls: SearchControls): GeocodeResult[] {
    return structured(this.ctx, input, controls);
  }

  autocomplete(q: string, controls: { lang: string; limit: number }): GeocodeResult[] {
    return autocomplete(this.ctx, q, controls);
  }

  reverse(input: ReverseInput): GeocodeResult[] {
    return reverse(this.ctx, input);
  }

  nearby(input: NearbyInput): GeocodeResult[] {
    return nearby(this.ctx, input);
  }

  resolveCategories(tokens: string[]): CategoryResolution {
    return this.ctx.categories.resolve(tokens);
  }

  placesSearch(q: string, controls: PlacesSearchControls): PlaceRecord[] {
    return placesSearch(this.ctx, q, controls);
  }

  placesNearby(input: NearbyInput): PlaceRecord[] {
    return placesNearby(this.ctx, input);
  }

  place(id: string, lang: string): PlaceRecord | undefined {
    return placeById(this.ctx, id, lang);
  }
}

/** Attribution of the datasets present, in source order, de-duplicated. */
function attributionText(sources: readonly string[], attribution: Record<string, string>): string {
  const parts: string[] = [];
  for (const s of sources) {
    const text = attribution[s];
    if (text && !parts.includes(text)) parts.push(text);
  }
  for (const text of Object.values(attribution)) if (text && !parts.includes(text)) parts.push(text);
  return parts.join('; ');
}
