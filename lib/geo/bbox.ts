/** A WGS84 box, in degrees. */
export interface BBox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export const bboxContains = (box: BBox, lon: number, lat: number): boolean =>
  lon >= box.minLon && lon <= box.maxLon && lat >= box.minLat && lat <= box.maxLat;

/** No area: min = max on an axis. */
export const bboxIsEmpty = (box: BBox): boolean => box.minLon === box.maxLon || box.minLat === box.maxLat;
