/**
 * SRTM `.hgt` tiles: one degree square, named after the south-west corner of the square
 * (N48W125 covers lat 48–49, lng −125..−124), posts row by row from the north edge down, each a
 * big-endian int16 in metres; −32768 is a void. 3601² posts is a 1″ tile, 1201² a 3″ one. The
 * edge rows and columns repeat the neighbouring tiles' edges.
 */

export const HGT_VOID = -32768;

export interface DemTile {
  /** The tile's name as SRTM spells it, e.g. N48W125. */
  name: string;
  /** Latitude of the south edge (whole degrees). */
  south: number;
  /** Longitude of the west edge (whole degrees). */
  west: number;
  /** Posts per side: 3601 (1″) or 1201 (3″). */
  size: number;
  /** size × size heights in metres, row 0 on the north edge; HGT_VOID where the survey has none. */
  samples: Int16Array;
}

const POSTS_PER_SIDE = [3601, 1201] as const;

/** The south-west corner a tile name stands for: N48W125 → {south: 48, west: −125}. */
export function hgtCorner(name: string): { south: number; west: number } {
  const match = /^([NS])(\d{2})([EW])(\d{3})$/i.exec(name);
  if (!match) throw new Error(`${name} is not an SRTM tile name (like N48W125)`);
  const [, ns, lat, ew, lng] = match as unknown as [string, string, string, string, string];
  const south = Number(lat) * (ns.toUpperCase() === 'S' ? -1 : 1);
  const west = Number(lng) * (ew.toUpperCase() === 'W' ? -1 : 1);
  if (south < -90 || south > 89 || west < -180 || west > 179) throw new Error(`${name} is outside the globe`);
  return { south, west };
}

/** A tile from its name (a file name like `N48W125.hgt` works too) and its bytes. */
export function parseHgt(fileName: string, bytes: Uint8Array): DemTile {
  const name = fileName.replace(/^.*[\\/]/, '').replace(/\.hgt$/i, '');
  const { south, west } = hgtCorner(name);
  const size = POSTS_PER_SIDE.find((side) => side * side * 2 === bytes.length);
  if (size === undefined) {
    throw new Error(`${fileName}: ${bytes.length} bytes is neither a 1″ (3601² posts) nor a 3″ (1201² posts) tile`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Int16Array(size * size);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, false);
  return { name: name.toUpperCase(), south, west, size, samples };
}
