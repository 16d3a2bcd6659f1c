/** Where a well or facility may lie: Alberta, BC and Saskatchewan, with a margin. */
const WEST = -139.1;
const EAST = -101.3;
const SOUTH = 48.2;
const NORTH = 60.1;

export function inWesternCanada(lng: number, lat: number): boolean {
  return lng >= WEST && lng <= EAST && lat >= SOUTH && lat <= NORTH;
}

/**
 * Province of a point by the borders that are meridians: 120°W (BC/AB north of the Rockies, where
 * the wells are) and 110°W (AB/SK). Coarse south of 53.8°N along the Rockies, where there are
 * no wells of the sources read.
 */
export function provinceAt(lng: number): 'AB' | 'BC' | 'SK' {
  return lng <= -120 ? 'BC' : lng <= -110 ? 'AB' : 'SK';
}

/** A coordinate text as a finite number, or null. */
export function coordinate(text: string | null): number | null {
  if (text === null || !/^[-+]?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}
