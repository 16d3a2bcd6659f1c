import type { OptimizedRoute } from '../../engines/routing/stop-order/optimized-route.ts';
import type { RouteWarning } from '../../schemas/routing-api.ts';
import { writeMicroDegrees } from './route-json.ts';

/** Longest coordinate pair text: `[-180.123456,-90.123456],`. */
const POSITION_BYTES = 26;

/** The answer's JSON bytes: members as OptimizedRouteResponse documents them, lines printed from micro-degrees (route-json.ts). */
export function optimizedRouteJson(route: OptimizedRoute): Buffer {
  const legs = route.legs.map((leg) => ({ ...leg, distanceMeters: Math.round(leg.metres), durationSeconds: Math.round(leg.seconds) }));
  const distance = legs.reduce((sum, leg) => sum + leg.distanceMeters, 0);
  const duration = legs.reduce((sum, leg) => sum + leg.durationSeconds, 0);
  const warnings = route.relocations.map(({ stop, metres }): RouteWarning => ({
    code: 'ENDPOINT_RELOCATED',
    where: `stops[${stop}]`,
    message: `the route reaches stops[${stop}] ${Math.round(metres)} m from the requested point, at the nearest usable road; treat the stop as unreached`,
  }));
  const texts: (string | Int32Array)[] = [`{"order":${JSON.stringify(route.order)},"distanceMeters":${distance},"durationSeconds":${duration},"geometry":`, route.line, ',"legs":['];
  legs.forEach((leg, i) => {
    texts.push(`${i > 0 ? ',' : ''}{"from":${leg.from},"to":${leg.to},"distanceMeters":${leg.distanceMeters},"durationSeconds":${leg.durationSeconds},"geometry":`, leg.line, '}');
  });
  texts.push(`]${warnings.length > 0 ? `,"warnings":${JSON.stringify(warnings)}` : ''}}`);
  let size = 0;
  for (const t of texts) size += typeof t === 'string' ? Buffer.byteLength(t) : 40 + (t.length / 2) * POSITION_BYTES;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const t of texts) {
    if (typeof t === 'string') {
      at += out.write(t, at, 'utf8');
      continue;
    }
    at += out.write('{"type":"LineString","coordinates":[', at, 'latin1');
    for (let i = 0; i < t.length; i += 2) {
      if (i > 0) out[at++] = 44; // ,
      out[at++] = 91; // [
      at = writeMicroDegrees(out, at, t[i]!);
      out[at++] = 44;
      at = writeMicroDegrees(out, at, t[i + 1]!);
      out[at++] = 93; // ]
    }
    at += out.write(']}', at, 'latin1');
  }
  return out.subarray(0, at);
}
