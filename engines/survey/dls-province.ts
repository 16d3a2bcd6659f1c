import { metresForLngDegrees } from './dls-geodesy.ts';
import type { DlsBounds, DlsMeridian, DlsProvince } from './dls-types.ts';

/*
 * The province of a cell. Borders that are survey lines are exact by designation:
 * Manitoba–Saskatchewan is the road allowance between ranges 29 and 30 W1 (which meets the
 * 2nd meridian near 55°48′N; north of that the border is the 2nd meridian, where every W1 range
 * is MB anyway), and Saskatchewan–Alberta is the 4th meridian. Geometric borders, with a band
 * either side where the province is omitted: the Ontario border at 95°09′W south of 52°50′N
 * (E1), the 120th meridian north of 53°48′N (Alberta–BC) and, south of that, the continental
 * divide as a polyline through its passes; 5 km either way. Between the passes the real divide
 * can wander further than that from the polyline: a known gap.
 */

const ONTARIO_BORDER = -95.153;
const ONTARIO_BORDER_NORTH = 52.83;
const STRAIGHT_BAND_M = 5_000;
const DIVIDE_BAND_M = 5_000;
const DIVIDE_MEETS_120 = 53.8;

/** Continental divide [lng, lat], south to north, through the AB–BC–Montana corner and the passes. */
const DIVIDE: readonly (readonly [number, number])[] = [
  [-114.068, 49.0], // Alberta–BC–Montana corner
  [-114.63, 49.35], // North Kootenay Pass
  [-114.69, 49.63], // Crowsnest Pass
  [-115.0, 50.38], // Elk Pass
  [-115.26, 50.68], // North Kananaskis Pass
  [-116.05, 51.23], // Vermilion Pass
  [-116.29, 51.45], // Kicking Horse Pass
  [-116.77, 51.82], // Howse Pass
  [-117.32, 52.19], // Columbia Icefield (Snow Dome)
  [-118.19, 52.38], // Athabasca Pass
  [-118.46, 52.89], // Yellowhead Pass
  [-119.2, 53.13], // Robson Pass
  [-120.0, DIVIDE_MEETS_120],
];

/** The Alberta–BC border's longitude at a latitude (≥ 49°N). */
function albertaBcBorder(lat: number): number {
  if (lat >= DIVIDE_MEETS_120) return -120;
  for (let i = 1; i < DIVIDE.length; i++) {
    const [lng1, lat1] = DIVIDE[i]!;
    if (lat <= lat1) {
      const [lng0, lat0] = DIVIDE[i - 1]!;
      return lng0 + ((lng1 - lng0) * (lat - lat0)) / (lat1 - lat0);
    }
  }
  return -120;
}

/** 'east' or 'west' when every corner of the bounds is beyond the band of the AB–BC border, else null. */
function sideOfAlbertaBc([west, south, east, north]: DlsBounds): 'east' | 'west' | null {
  let side: 'east' | 'west' | null = null;
  for (const lat of [south, north]) {
    const border = albertaBcBorder(lat);
    const band = lat >= DIVIDE_MEETS_120 ? STRAIGHT_BAND_M : DIVIDE_BAND_M;
    const eastOf = metresForLngDegrees(west - border, lat) > band;
    const westOf = metresForLngDegrees(border - east, lat) > band;
    const here = eastOf ? 'east' : westOf ? 'west' : null;
    if (here === null || (side !== null && side !== here)) return null;
    side = here;
  }
  // the divide polyline bends between the two edges' latitudes: check its vertices inside too
  for (const [lng, lat] of DIVIDE) {
    if (lat <= south || lat >= north) continue;
    const clearance = side === 'east' ? west - lng : lng - east;
    if (metresForLngDegrees(clearance, lat) <= DIVIDE_BAND_M) return null;
  }
  return side;
}

export function dlsProvince(meridian: DlsMeridian, range: number, bounds: DlsBounds): DlsProvince | undefined {
  switch (meridian) {
    case 'E1': {
      const [, south, east] = bounds;
      const clear = south >= ONTARIO_BORDER_NORTH || metresForLngDegrees(ONTARIO_BORDER - east, south) > STRAIGHT_BAND_M;
      return clear ? 'MB' : undefined;
    }
    case 'W1':
      return range <= 29 ? 'MB' : 'SK';
    case 'W2':
    case 'W3':
      return 'SK';
    case 'W4':
      return 'AB';
    case 'W5':
    case 'W6': {
      const side = sideOfAlbertaBc(bounds);
      return side === 'east' ? 'AB' : side === 'west' ? 'BC' : undefined;
    }
  }
}
