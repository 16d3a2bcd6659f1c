/**
 * operationIds: one rule (verb from the method, then the path's fixed segments in camelCase, then
 * `By` and its parameters when the path ends in one), with the few that read badly named here.
 * Keyed `METHOD path` in the document's path form.
 */
const OVERRIDES: Readonly<Record<string, string>> = {
  'GET /openapi.json': 'getOpenApiDocument',
  'GET /geocode/search': 'geocodeSearch',
  'GET /geocode/structured': 'geocodeStructured',
  'GET /geocode/autocomplete': 'geocodeAutocomplete',
  'GET /geocode/nearby': 'geocodeNearby',
  'GET /geocode/reverse': 'geocodeReverse',
  'POST /geocode/batch': 'geocodeBatch',
  'GET /places/search': 'searchPlaces',
  'GET /places/nearby': 'listPlacesNearby',
  'GET /places/{id}': 'getPlace',
  'POST /places/{id}/feedback': 'sendPlaceFeedback',
  'POST /feedback': 'sendFeedback',
  'GET /transit/stops': 'listTransitStopsNearby',
  'GET /transit/stops/{id}': 'getTransitStop',
  'GET /transit/stops/{id}/departures': 'listTransitStopDepartures',
  'GET /transit/routes/{id}': 'getTransitRoute',
  'GET /tiles/{z}/{x}/{y}': 'getBasemapTile',
  'GET /tiles.json': 'getBasemapTileJson',
  'GET /terrain/{version}/{z}/{x}/{y}': 'getTerrainTileVersioned',
  'GET /terrain/{z}/{x}/{y}': 'getTerrainTile',
  'GET /contours/{version}/{z}/{x}/{y}': 'getContourTileVersioned',
  'GET /contours/{z}/{x}/{y}': 'getContourTile',
  'GET /glyphs/{version}/{fontstack}/{range}': 'getGlyphsVersioned',
  'GET /glyphs/{fontstack}/{range}': 'getGlyphs',
  'GET /sprite/{version}/{file}': 'getSpriteVersioned',
  'GET /sprite/{file}': 'getSprite',
  'GET /styles/{file}': 'getStyle',
  'GET /layers/{id}': 'getLayer',
  'GET /layers/{id}/{z}/{x}/{y}': 'getLayerTile',
  'GET /layers/{id}/tiles.json': 'getLayerTileJson',
  'GET /identify': 'identifyFeatures',
  'GET /data/query': 'queryLayerData',
  'GET /route': 'getRoute',
  'GET /isochrone': 'getIsochrone',
  'POST /match': 'matchTrace',
  'POST /optimized-route': 'optimizeRoute',
  'POST /matrix': 'computeMatrix',
  'POST /optimize': 'optimizeTours',
  'POST /v1/projects/{project}:optimizeTours': 'optimizeToursV1Project',
  'POST /v1/projects/{project}/locations/{location}:optimizeTours': 'optimizeToursV1ProjectLocation',
  'POST /projects/{project}:optimizeTours': 'optimizeToursProject',
  'POST /projects/{project}/locations/{location}:optimizeTours': 'optimizeToursProjectLocation',
  'POST /byod': 'uploadOverlay',
  'GET /byod': 'listOverlays',
  'GET /byod/{id}': 'getOverlay',
  'DELETE /byod/{id}': 'deleteOverlay',
  'GET /byod/{id}/data': 'getOverlayData',
  'GET /byod/{id}/{z}/{x}/{y}': 'getOverlayTile',
  'GET /byod/{id}/tiles.json': 'getOverlayTileJson',
};

const VERBS: Readonly<Record<string, string>> = { GET: 'get', POST: 'create', PUT: 'put', PATCH: 'update', DELETE: 'delete' };
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const camelWords = (segment: string) => segment.replace(/\.json$/, '').split(/[^A-Za-z0-9]+/).filter(Boolean).map(capitalized).join('');

export function operationIdOf(method: string, path: string): string {
  const upper = method.toUpperCase();
  const named = OVERRIDES[`${upper} ${path}`];
  if (named) return named;
  const segments = path.split('/').filter(Boolean);
  const fixed = segments.filter((s) => !s.startsWith('{')).map(camelWords).join('');
  const trailing = [];
  for (let i = segments.length - 1; i >= 0 && segments[i]!.startsWith('{'); i--) trailing.unshift(camelWords(segments[i]!));
  return `${VERBS[upper] ?? method.toLowerCase()}${fixed}${trailing.length > 0 ? `By${trailing.join('')}` : ''}`;
}
