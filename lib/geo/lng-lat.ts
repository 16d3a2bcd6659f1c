/** A WGS84 position as [longitude, latitude], in degrees (GeoJSON order). */
export type LngLat = [number, number];
