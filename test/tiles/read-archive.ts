import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles } from 'pmtiles';
import { FileSource } from '../../engines/tiles/pmtiles/file-source.ts';
import { TILE_EXTENT } from '../../engines/tiles/tiler.ts';

/** Reading tiler output back the way clients do: the pmtiles reader, then @mapbox/vector-tile. */

export interface OpenArchive {
  archive: PMTiles;
  tile(z: number, x: number, y: number): Promise<VectorTile | null>;
  bytes(z: number, x: number, y: number): Promise<Buffer | null>;
  close(): Promise<void>;
}

export function openArchive(file: string): OpenArchive {
  const source = new FileSource(file);
  const archive = new PMTiles(source);
  return {
    archive,
    async tile(z, x, y) {
      const t = await archive.getZxy(z, x, y);
      return t ? new VectorTile(new PbfReader(new Uint8Array(t.data))) : null;
    },
    async bytes(z, x, y) {
      const t = await archive.getZxy(z, x, y);
      return t ? Buffer.from(t.data) : null;
    },
    close: () => source.close(),
  };
}

export function layerFeatures(tile: VectorTile | null, layer: string): VectorTileFeature[] {
  const l = tile?.layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
}

/** A lon/lat in the units of the tile that holds it at zoom z: [tile x, tile y, local x, local y]. */
export function project(z: number, lon: number, lat: number): [number, number, number, number] {
  const n = 2 ** z;
  const wx = ((lon + 180) / 360) * n;
  const s = Math.sin((lat * Math.PI) / 180);
  const wy = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n;
  return [Math.floor(wx), Math.floor(wy), (wx - Math.floor(wx)) * TILE_EXTENT, (wy - Math.floor(wy)) * TILE_EXTENT];
}

/** Vertices of a decoded feature (a ring's closing point counted, as the decoder repeats it). */
export function vertexCount(f: VectorTileFeature): number {
  return f.loadGeometry().reduce((n, ring) => n + ring.length, 0);
}

