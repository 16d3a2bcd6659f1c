/** Google's encoded polyline of [lng, lat] positions (latitude first in the encoding). */
export function encodePolyline(positions: readonly (readonly [number, number])[], precision = 5): string {
  const factor = 10 ** precision;
  let out = '';
  let lastLat = 0;
  let lastLng = 0;
  const push = (delta: number) => {
    let value = delta < 0 ? ~(delta << 1) : delta << 1;
    while (value >= 0x20) {
      out += String.fromCharCode((0x20 | (value & 0x1f)) + 63);
      value >>>= 5;
    }
    out += String.fromCharCode(value + 63);
  };
  for (const [lng, lat] of positions) {
    const y = Math.round(lat * factor);
    const x = Math.round(lng * factor);
    push(y - lastLat);
    push(x - lastLng);
    lastLat = y;
    lastLng = x;
  }
  return out;
}
