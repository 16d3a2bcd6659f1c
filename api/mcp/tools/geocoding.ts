import { readFreeText } from '../../../engines/grammars/free-text.ts';
import {
  GeocodeAutocompleteQuery, GeocodeBatchBody, GeocodeBatchResponse, GeocodeNearbyQuery, GeocodeResults, GeocodeReverseQuery,
  GeocodeSearchQuery, GeocodeStructuredQuery, PlaceIdParams, PlaceQuery, PlacesResponse, PlacesSearchQuery,
  DEFAULT_RADIUS_M, MAX_BATCH_QUERIES, MAX_LIMIT, MAX_RADIUS_M, MIN_RADIUS_M,
} from '../../../schemas/geocoding-api.ts';
import { geocodeAutocomplete } from '../../routes/geocoding/autocomplete.ts';
import { checkBatchQueries, geocodeBatch } from '../../routes/geocoding/batch.ts';
import { geocodeNearby } from '../../routes/geocoding/nearby.ts';
import { geocodeReverse } from '../../routes/geocoding/reverse.ts';
import { geocodeSearch } from '../../routes/geocoding/search.ts';
import { geocodeStructured } from '../../routes/geocoding/structured.ts';
import { placeOfId } from '../../routes/places/place.ts';
import { searchPlacesByName } from '../../routes/places/search.ts';
import { endpointTool, type EndpointInput } from '../endpoint-tool.ts';
import type { McpTool } from '../tool.ts';

/** q read as the geocode routes read it (api/params/geocoding/free-text.ts), for the capability table and the search. */
const qText = (input: EndpointInput) => [readFreeText(String(input.query.q ?? ''))];

const BATCH_ROUTE = '/geocode/batch';

const batchTool = endpointTool({
  name: 'batch_geocode',
  title: 'Find many places in Canada at once',
  description: `Up to ${MAX_BATCH_QUERIES} free-text searches in one call: results[i] is what the geocode tool answers for ` +
    'queries[i], with the shared controls (lang, limit, bbox, focus, region, layers as on geocode; bbox and focus may also be ' +
    'number arrays [minLon, minLat, maxLon, maxLat] and [lon, lat]). Land descriptions, well ids and parcel ids need their add-ons ' +
    'as on geocode. Blank entries answer [] and are not billed; every other entry is billed as one call, and a batch the ' +
    'account\'s remaining allowance this month cannot cover is refused whole (429). ' +
    'Example: {"queries": ["k1a 0a9", "Gare Centrale"], "limit": 3}. One call of POST /geocode/batch.',
  method: 'POST',
  route: BATCH_ROUTE,
  body: GeocodeBatchBody,
  response: GeocodeBatchResponse,
  wrap: 'results',
  readRaw: checkBatchQueries,
  freeText: (input) => (input.body.queries as string[]).map(readFreeText),
  answer: async (input, { app, request }) => {
    const caller = { apiKey: request.apiKey, headers: request.headers, url: BATCH_ROUTE, log: request.log };
    const { answer, billable } = await geocodeBatch(app, caller, input.body as GeocodeBatchBody, input.freeText);
    return { value: answer, billableQueries: billable };
  },
});

export const geocodingTools: McpTool[] = [
  endpointTool({
    name: 'geocode',
    title: 'Find a place in Canada',
    description: 'Forward geocoding of free text in Canada: civic addresses, streets, named places, localities, provinces, ' +
      'postal codes, and (with the matching add-ons) Dominion Land Survey descriptions (NW-25-24-1-W5), NTS / BC grid ' +
      'references (093F10), well identifiers (100/06-32-048-07W5/00) and BC parcel ids (012-345-678). Results are best ' +
      'first, each with its coordinates (lon, lat in WGS84), layer, match type and confidence. Filters: bbox ' +
      '(minLon,minLat,maxLon,maxLat), layers, region; focus biases toward a point. ' +
      `limit 1-${MAX_LIMIT} (default 10). ` +
      'Example: {"q": "1055 Canada Place, Vancouver"}. One call of GET /geocode/search.',
    method: 'GET',
    route: '/geocode/search',
    query: GeocodeSearchQuery,
    response: GeocodeResults,
    wrap: 'results',
    freeText: qText,
    answer: async (input, { app }) => ({ value: await geocodeSearch(app.services, input.query as GeocodeSearchQuery, input.freeText?.[0]) }),
  }),
  endpointTool({
    name: 'geocode_structured',
    title: 'Find a Canadian address given field by field',
    description: 'Structured address search: the street line (address: civic number and street), city, region (province or ' +
      'territory, any spelling) and postalcode as separate fields; at least one of address, city, postalcode (a region alone is ' +
      'refused). address and city rank; region and postalcode narrow. Civic data only (no land descriptions or wells). Results ' +
      `best first with coordinates (lon, lat in WGS84); no match is []. Filters bbox (minLon,minLat,maxLon,maxLat), layers; focus ` +
      `(lon,lat) biases. limit 1-${MAX_LIMIT} (default 10). ` +
      'Example: {"address": "111 Wellington St", "city": "Ottawa", "region": "ON"}. One call of GET /geocode/structured.',
    method: 'GET',
    route: '/geocode/structured',
    query: GeocodeStructuredQuery,
    response: GeocodeResults,
    wrap: 'results',
    answer: async (input, { app }) => ({ value: await geocodeStructured(app.services, input.query as GeocodeStructuredQuery) }),
  }),
  endpointTool({
    name: 'autocomplete',
    title: 'Complete a partly typed Canadian place or address',
    description: 'Type-ahead search: the last word of q is a prefix, earlier words match whole tokens in any order. Three ' +
      'characters or fewer answer localities, provinces and points of interest only; no typo tolerance. A complete land ' +
      'description, well id or parcel id answers as on geocode (same add-ons). Results best first with coordinates (lon, lat in ' +
      `WGS84). limit 1-${MAX_LIMIT} (default 8). ` +
      'Example: {"q": "queb"}. One call of GET /geocode/autocomplete.',
    method: 'GET',
    route: '/geocode/autocomplete',
    query: GeocodeAutocompleteQuery,
    response: GeocodeResults,
    wrap: 'results',
    freeText: qText,
    answer: async (input, { app }) => ({
      value: await geocodeAutocomplete(app.services, input.query as GeocodeAutocompleteQuery, input.freeText?.[0]),
    }),
  }),
  endpointTool({
    name: 'reverse_geocode',
    title: 'What is at a point in Canada',
    description: 'Reverse geocoding: the named places (addresses, streets, places, localities) nearest to lon, lat (WGS84 ' +
      'degrees), nearest first, each with its geodesic distance in metres. layers "legal_land" (legal-land add-on) answers ' +
      'instead the survey cells holding the point: the Dominion Land Survey LSD, quarter section, section and township, or ' +
      'outside the DLS its NTS cells (with the BC grid in British Columbia), distance to the cell centre; geometry true adds ' +
      `each cell's polygon. limit 1-${MAX_LIMIT} (default 5). ` +
      'Example: {"lon": -123.1209, "lat": 49.2828}. One call of GET /geocode/reverse.',
    method: 'GET',
    route: '/geocode/reverse',
    query: GeocodeReverseQuery,
    response: GeocodeResults,
    wrap: 'results',
    answer: async (input, { app }) => ({ value: await geocodeReverse(app.services, input.query as GeocodeReverseQuery) }),
  }),
  endpointTool({
    name: 'nearby_places',
    title: 'Places of a kind near a point in Canada',
    description: 'Category search near a point, nearest first, each with its distance in metres and category: category is 1 ' +
      'to 8 comma-separated tokens, taxonomy ids (health.pharmacy) or English or French words (ev charger, pharmacie). Exactly ' +
      'one of near ("lon,lat") or bbox ("minLon,minLat,maxLon,maxLat": anchors at its centre with a radius reaching its ' +
      `corners; it does not clip). radius in metres, default ${DEFAULT_RADIUS_M}, clamped to ${MIN_RADIUS_M}..${MAX_RADIUS_M}. ` +
      `limit 1-${MAX_LIMIT} (default 10). ` +
      'Example: {"category": "ev charger", "near": "-75.6953,45.4206"}. One call of GET /geocode/nearby.',
    method: 'GET',
    route: '/geocode/nearby',
    query: GeocodeNearbyQuery,
    response: GeocodeResults,
    wrap: 'results',
    answer: async (input, { app }) => ({ value: await geocodeNearby(app.services, input.query as GeocodeNearbyQuery) }),
  }),
  batchTool,
  endpointTool({
    name: 'place',
    title: 'One place by its id',
    description: 'The place (point of interest) with this id, as the other place and geocode answers name it (ids are opaque ' +
      'and a corpus rebuild may renumber them): its names by language, category, coordinates (lon, lat in WGS84) and ' +
      'address. An unknown or malformed id is refused 404. lang picks the rendered name (default en). ' +
      'Example: {"id": "<an id from places_search>"}. One call of GET /places/{id}.',
    method: 'GET',
    route: '/places/:id',
    params: PlaceIdParams,
    query: PlaceQuery,
    response: PlacesResponse,
    answer: async (input, { app }) => ({
      value: await placeOfId(app.services, input.params as PlaceIdParams, input.query as PlaceQuery),
    }),
  }),
  endpointTool({
    name: 'places_search',
    title: 'Find points of interest in Canada by name',
    description: 'Places of interest by name (returns places, not the best geographic match: a city name does not return ' +
      'the city; use geocode for that). bbox (minLon,minLat,maxLon,maxLat) is a hard filter, focus (lon,lat) a soft ' +
      'preference, category a filter of tokens as on nearby_places. Each place has its id (for the place tool), names, ' +
      `category and coordinates (lon, lat in WGS84). limit 1-${MAX_LIMIT} (default 10). ` +
      'Example: {"q": "Gare Centrale"}. One call of GET /places/search.',
    method: 'GET',
    route: '/places/search',
    query: PlacesSearchQuery,
    response: PlacesResponse,
    answer: async (input, { app }) => ({ value: await searchPlacesByName(app.services, input.query as PlacesSearchQuery) }),
  }),
];
