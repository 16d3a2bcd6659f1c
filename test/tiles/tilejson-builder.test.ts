import { describe, expect, it } from 'vitest';
import { TileType } from '../../engines/tiles/pmtiles/header.ts';
import { buildTileJson, type ArchiveDescription } from '../../engines/tiles/tilejson.ts';
import { tileUrlTemplate } from '../../engines/tiles/tile-url.ts';

/* The pure TileJSON building of engines/tiles/tilejson.ts, on headers and metadata no release holds. */

const HEADER: ArchiveDescription['header'] = {
  tileType: TileType.mvt, minZoom: 0, maxZoom: 14,
  minLon: -123.3, minLat: 49.1, maxLon: -122.9, maxLat: 49.4, centerLon: -123.1, centerLat: 49.28, centerZoom: 11,
};
const TILES = tileUrlTemplate('https://api.example.ca', 'tiles', 'k y/&=');

describe('buildTileJson', () => {
  it('encodes the key in the tile URL template', () => {
    expect(TILES).toBe('https://api.example.ca/tiles/{z}/{x}/{y}?key=k%20y%2F%26%3D');
  });

  it('keeps only what TileJSON can say of an upload\'s metadata, whatever it holds', () => {
    const doc = buildTileJson({
      tiles: TILES,
      archive: {
        header: HEADER,
        metadata: {
          name: 'n', attribution: 42, version: 'release-7',
          vector_layers: [
            { id: 'a', fields: { x: 'Number', bad: { nested: true } }, minzoom: 2, maxzoom: 99, description: 'A' },
            { fields: {} }, 'b', null, { id: 7 },
            { id: 'c' },
          ],
        },
      },
    });
    expect(doc).toEqual({
      tilejson: '3.0.0', tiles: [TILES], name: 'n', scheme: 'xyz', minzoom: 0, maxzoom: 14,
      bounds: [-123.3, 49.1, -122.9, 49.4], center: [-123.1, 49.28, 11],
      vector_layers: [{ id: 'a', fields: { x: 'Number' }, description: 'A', minzoom: 2 }, { id: 'c', fields: {} }],
    });
  });

  it('states a semver version only, and an empty vector_layers for vector tiles without any', () => {
    const doc = buildTileJson({ tiles: TILES, archive: { header: HEADER, metadata: { version: '2.1.0' } } });
    expect(doc.version).toBe('2.1.0');
    expect(doc.vector_layers).toEqual([]);
    expect(buildTileJson({ tiles: TILES, archive: { header: HEADER, metadata: 'not an object' } }).vector_layers).toEqual([]);
  });

  it('gives raster tiles no vector_layers', () => {
    const doc = buildTileJson({ tiles: TILES, archive: { header: { ...HEADER, tileType: TileType.png }, metadata: { vector_layers: [{ id: 'a', fields: {} }] } } });
    expect(doc).not.toHaveProperty('vector_layers');
  });

  it('narrows to the served zooms and bounds, moving a centre outside them inside', () => {
    const doc = buildTileJson({
      tiles: TILES,
      archive: { header: { ...HEADER, centerLon: 0, centerLat: 0, centerZoom: 0 }, metadata: {} },
      minzoom: 4, maxzoom: 12, bounds: [-123.2, 49.2, -123.0, 49.3], attribution: 'the row\'s',
    });
    expect(doc).toMatchObject({ minzoom: 4, maxzoom: 12, bounds: [-123.2, 49.2, -123.0, 49.3], attribution: 'the row\'s' });
    expect(doc.center[0]).toBeCloseTo(-123.1, 9);
    expect(doc.center[1]).toBeCloseTo(49.25, 9);
    expect(doc.center[2]).toBe(4);
  });
});
