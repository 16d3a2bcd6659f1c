type JsonSchema = Record<string, unknown>;
type Responses = Record<string, JsonSchema>;

/**
 * What some routes send that their response schemas cannot say: the bytes of a tile-like 200 (the
 * schemas describe only the JSON errors), an answer whose schema the serializer must not see, the 204 of an empty tile, and the plain-text 400 and
 * 404 of tile paths. `text` statuses are plain text only; `textToo` statuses are JSON or plain
 * text depending on the cause (named in their description). Keyed by route URL as registered.
 */
interface MediaFix {
  ok?: Record<string, JsonSchema>;
  noContent?: string;
  text?: number[];
  textToo?: number[];
  /** the 200 schema stays, under this content type instead of application/json */
  okType?: string;
}

const bytes = (description: string) => ({ type: 'string', format: 'binary', description });
const PROTOBUF = { 'application/x-protobuf': bytes('Mapbox Vector Tile bytes (gzip content coding unless refused)') };
const EMPTY_TILE = 'no tile here (ocean, outside the data, or beyond the deepest zoom)';

const vectorTile: MediaFix = { ok: PROTOBUF, noContent: EMPTY_TILE, text: [400, 404] };
const terrainTile: MediaFix = { ok: { 'image/png': bytes('Terrarium-encoded elevation PNG') }, noContent: EMPTY_TILE, text: [400], textToo: [404] };
const contourTile: MediaFix = { ok: PROTOBUF, noContent: EMPTY_TILE, text: [400], textToo: [404] };
const glyphs: MediaFix = { ok: { 'application/x-protobuf': bytes('SDF glyph range (protocol buffer)') }, text: [400, 404] };
const sprite: MediaFix = { ok: { 'image/png': bytes('sprite sheet (.png, @2x.png)'), 'application/json': { type: 'object', description: 'sprite index (.json, @2x.json)' } }, text: [400, 404] };

export const MEDIA_FIXES: Readonly<Record<string, MediaFix>> = {
  '/tiles/:z/:x/:y': { ok: PROTOBUF, noContent: EMPTY_TILE, text: [400] },
  '/terrain/:version/:z/:x/:y': terrainTile,
  '/terrain/:z/:x/:y': terrainTile,
  '/contours/:version/:z/:x/:y': contourTile,
  '/contours/:z/:x/:y': contourTile,
  '/glyphs/:version/:fontstack/:range': glyphs,
  '/glyphs/:fontstack/:range': glyphs,
  '/sprite/:version/:file': sprite,
  '/sprite/:file': sprite,
  '/byod/:id/:z/:x/:y': vectorTile,
  '/layers/:id/:z/:x/:y': { ...vectorTile, textToo: [410] },
  '/byod/:id/data': { ok: { 'application/geo+json': { type: 'object', description: 'the uploaded GeoJSON' }, 'application/vnd.pmtiles': bytes('the uploaded PMTiles archive') } },
  '/openapi.json': { ok: { 'application/json': { type: 'object', description: 'this document (OpenAPI 3.1)' } } },
  '/isochrone': { okType: 'application/geo+json' },
};

const PLAIN_TEXT = { 'text/plain': { schema: { type: 'string' } } };

/** The documented responses of a route (OpenAPI form), with its media fix applied. */
export function fixMedia(url: string, responses: Responses): Responses {
  const fix = MEDIA_FIXES[url];
  if (!fix) return responses;
  const fixed: Responses = { ...responses };
  if (fix.ok) {
    fixed['200'] = {
      description: fixed['200']?.description ?? 'the answer',
      content: Object.fromEntries(Object.entries(fix.ok).map(([type, schema]) => [type, { schema }])),
    };
  }
  if (fix.okType && fixed['200']) {
    const content = fixed['200'].content as Record<string, unknown>;
    fixed['200'] = { ...fixed['200'], content: { [fix.okType]: content['application/json'] } };
  }
  if (fix.noContent) fixed['204'] = { description: fix.noContent };
  for (const status of fix.text ?? []) {
    fixed[String(status)] = { description: fixed[String(status)]?.description ?? 'plain text', content: PLAIN_TEXT };
  }
  for (const status of fix.textToo ?? []) {
    const current = fixed[String(status)];
    fixed[String(status)] = { ...current, content: { ...(current?.content as object | undefined), ...PLAIN_TEXT } };
  }
  return Object.fromEntries(Object.entries(fixed).sort(([a], [b]) => a.localeCompare(b)));
}
