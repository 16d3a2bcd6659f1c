import type { Header } from 'pmtiles';
import type { TileJson, TileJsonVectorLayer } from '../../schemas/tiles-api.ts';
import { TileType } from './pmtiles/header.ts';

/** What a PMTiles archive says of itself: its header and its JSON metadata (any JSON; an upload's is not ours). */
export interface ArchiveDescription {
  header: Pick<Header, 'tileType' | 'minZoom' | 'maxZoom' | 'minLon' | 'minLat' | 'maxLon' | 'maxLat' | 'centerLon' | 'centerLat' | 'centerZoom'>;
  metadata: unknown;
}

export type LonLatBounds = [west: number, south: number, east: number, north: number];

export interface TileJsonInput {
  /** The tile URL template (engines/tiles/tile-url.ts). */
  tiles: string;
  archive: ArchiveDescription;
  /** What the served data states beyond the archive; each wins over the archive's own. */
  name?: string;
  description?: string;
  attribution?: string;
  /** The zooms the tile route serves, when narrower than the archive's. */
  minzoom?: number;
  maxzoom?: number;
  bounds?: LonLatBounds;
}

const MAX_ZOOM = 30;
const SEMVER = /^\d+\.\d+\.\d+[\w.+-]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const zoom = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_ZOOM ? (v as number) : undefined);
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** An archive's vector_layers as TileJSON states them: entries without a string id dropped, fields kept only as text. */
function vectorLayers(metadata: Record<string, unknown>): TileJsonVectorLayer[] {
  const layers = Array.isArray(metadata.vector_layers) ? metadata.vector_layers : [];
  return layers.filter((l): l is Record<string, unknown> => isObject(l) && typeof l.id === 'string').map((l) => {
    const fields = isObject(l.fields) ? Object.entries(l.fields).filter((f): f is [string, string] => typeof f[1] === 'string') : [];
    const [description, minzoom, maxzoom] = [text(l.description), zoom(l.minzoom), zoom(l.maxzoom)];
    return {
      id: l.id as string,
      fields: Object.fromEntries(fields),
      ...(description === undefined ? {} : { description }),
      ...(minzoom === undefined ? {} : { minzoom }),
      ...(maxzoom === undefined ? {} : { maxzoom }),
    };
  });
}

/**
 * A TileJSON 3.0.0 document of one archive served at `tiles`: zooms, bounds and centre from the
 * header (or the served band), name, description, attribution and vector_layers from the metadata
 * (vector tiles only), version only when the metadata states a semver.
 */
export function buildTileJson(input: TileJsonInput): TileJson {
  const { header } = input.archive;
  const metadata = isObject(input.archive.metadata) ? input.archive.metadata : {};
  const minzoom = clamp(input.minzoom ?? header.minZoom, 0, MAX_ZOOM);
  const maxzoom = clamp(input.maxzoom ?? header.maxZoom, minzoom, MAX_ZOOM);
  const bounds: LonLatBounds = input.bounds ?? [header.minLon, header.minLat, header.maxLon, header.maxLat];
  const [west, south, east, north] = bounds;
  const inside = header.centerLon >= west && header.centerLon <= east && header.centerLat >= south && header.centerLat <= north;
  const center = inside ? [header.centerLon, header.centerLat] : [(west + east) / 2, (south + north) / 2];
  const name = input.name ?? text(metadata.name);
  const description = input.description ?? text(metadata.description);
  const attribution = input.attribution ?? text(metadata.attribution);
  const version = text(metadata.version);
  return {
    tilejson: '3.0.0',
    tiles: [input.tiles],
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    ...(version !== undefined && SEMVER.test(version) ? { version } : {}),
    ...(attribution === undefined ? {} : { attribution }),
    scheme: 'xyz',
    minzoom,
    maxzoom,
    bounds,
    center: [...center, clamp(header.centerZoom, minzoom, maxzoom)],
    ...(header.tileType === TileType.mvt ? { vector_layers: vectorLayers(metadata) } : {}),
  };
}
