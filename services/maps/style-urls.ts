import { ALL_STYLE_NAMES } from '../../engines/styles/style-names.ts';
import { tileUrlTemplate, type TileUrlOrigin } from '../../engines/tiles/tile-url.ts';
import type { MapStyleList, MapStyleUrls } from '../../schemas/mcp-maps.ts';
import type { Static } from '@sinclair/typebox';
import type { StyleQuery as StyleQuerySchema } from '../../schemas/styles-api.ts';

type StyleQuery = Static<typeof StyleQuerySchema>;

/** The style options a style URL carries, in the order GET /styles/{style}.json documents them. */
const STYLE_OPTIONS = ['mode', 'lang', 'theme', 'overlays', 'profile', 'flavor'] as const;
/** What the map page reads from its URL besides key and style (web/map/state.js). */
const PAGE_OPTIONS = ['theme', 'overlays'] as const;

function query(key: string, options: Record<string, string | undefined>, names: readonly string[]): string {
  const q = new URLSearchParams({ key });
  for (const name of names) if (options[name] !== undefined && options[name] !== '') q.set(name, options[name]);
  return q.toString();
}

/** GET /styles/{style}.json with the key and options, as the map page builds it (web/map/state.js `styleUrl`). */
export function styleDocumentUrl({ baseUrl, key }: TileUrlOrigin, style: string, options: StyleQuery = {}): string {
  return `${baseUrl}/styles/${encodeURIComponent(style)}.json?${query(key, options, STYLE_OPTIONS)}`;
}

/** The basemap's TileJSON (GET /tiles.json), the key embedded as in the tile URLs. */
export function basemapTileJsonUrl({ baseUrl, key }: TileUrlOrigin): string {
  return `${baseUrl}/tiles.json?key=${encodeURIComponent(key)}`;
}

/** Where a map client loads a (checked) style: its document, the basemap's TileJSON and tiles, the map page showing it. */
export function mapStyleUrls(origin: TileUrlOrigin, style: string, options: StyleQuery = {}): MapStyleUrls {
  const page = query(origin.key, { style, ...options }, ['style', ...PAGE_OPTIONS]);
  return {
    style,
    style_url: styleDocumentUrl(origin, style, options),
    tilejson_url: basemapTileJsonUrl(origin),
    tiles_url: tileUrlTemplate(origin.baseUrl, 'tiles', origin.key),
    map_url: `${origin.baseUrl}/map/?${page}`,
  };
}

/** Every style name the style route answers, each with its document URL. */
export function mapStyleList(origin: TileUrlOrigin): MapStyleList {
  return {
    styles: ALL_STYLE_NAMES.map((name) => ({ name, style_url: styleDocumentUrl(origin, name) })),
    tilejson_url: basemapTileJsonUrl(origin),
    tiles_url: tileUrlTemplate(origin.baseUrl, 'tiles', origin.key),
  };
}
