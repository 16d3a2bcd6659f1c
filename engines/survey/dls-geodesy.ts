/** GRS80 (≈ WGS84, NAD83) distances along meridians and parallels. */
const A = 6378137;
const F = 1 / 298.257222101;
const E2 = F * (2 - F);
const E4 = E2 * E2;
const E6 = E4 * E2;
const RAD = Math.PI / 180;

// Meridian arc series (Helmert/Bessel form), sub-millimetre over 0–90°
const M0 = 1 - E2 / 4 - (3 * E4) / 64 - (5 * E6) / 256;
const M2 = (3 * E2) / 8 + (3 * E4) / 32 + (45 * E6) / 1024;
const M4 = (15 * E4) / 256 + (45 * E6) / 1024;
const M6 = (35 * E6) / 3072;

/** Length in metres of the meridian from the equator to latitude `lat` (degrees). */
export function meridianArc(lat: number): number {
  const p = lat * RAD;
  return A * (M0 * p - M2 * Math.sin(2 * p) + M4 * Math.sin(4 * p) - M6 * Math.sin(6 * p));
}

/** Radius of curvature of the meridian at `lat`, in metres. */
function meridianRadius(lat: number): number {
  const s = Math.sin(lat * RAD);
  return (A * (1 - E2)) / Math.pow(1 - E2 * s * s, 1.5);
}

/** The latitude (degrees) whose meridian arc from the equator is `arc` metres. */
export function latitudeAtArc(arc: number): number {
  let lat = arc / 111_132;
  for (let i = 0; i < 6; i++) {
    const step = (arc - meridianArc(lat)) / meridianRadius(lat) / RAD;
    lat += step;
    if (Math.abs(step) < 1e-13) break;
  }
  return lat;
}

/** Radius of the parallel at `lat`, in metres: a degree of longitude there is radius × π/180. */
export function parallelRadius(lat: number): number {
  const s = Math.sin(lat * RAD);
  return (A * Math.cos(lat * RAD)) / Math.sqrt(1 - E2 * s * s);
}

/** Degrees of longitude spanned by `metres` along the parallel at `lat`. */
export const lngDegreesFor = (metres: number, lat: number): number => metres / parallelRadius(lat) / RAD;

/** Metres spanned by `degrees` of longitude along the parallel at `lat`. */
export const metresForLngDegrees = (degrees: number, lat: number): number => degrees * RAD * parallelRadius(lat);

/** Metres spanned by the meridian between two latitudes. */
export const metresBetweenLatitudes = (south: number, north: number): number => meridianArc(north) - meridianArc(south);
