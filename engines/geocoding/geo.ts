import { distance as greatCircleKm } from 'geokdbush';

/** Metres over the earth's curve (haversine, mean radius 6371 km), rounded to an integer. */
export function distanceMetres(lng1: number, lat1: number, lng2: number, lat2: number): number {
  return Math.round(greatCircleKm(lng1, lat1, lng2, lat2) * 1000);
}
