/**
 * Synthetic DriveBC-like Open511 events for the benchmark: spread over southern and central BC,
 * 40 % points and 60 % lines of 5–120 vertices (like the real samples' 7–186), the real mix of
 * types, with surfaces, lane states, closures and future schedules in realistic shares.
 */
type Random = () => number;

export function seeded(seed: number): Random {
  let s = seed >>> 0;
  return () => ((s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32);
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

const SURFACES = ['PARTLY_ICY', 'ICE_COVERED', 'SNOW_PACKED', 'PARTLY_SNOW_COVERED', 'LOOSE_GRAVEL', 'MUD'];
const HIGHWAYS = ['Highway 1', 'Highway 3', 'Highway 5', 'Highway 16', 'Highway 97', 'Highway 99', 'Highway 7', 'Highway 19'];

function line(random: Random, lon: number, lat: number): number[][] {
  const n = 5 + Math.floor(random() * 116);
  let heading = random() * 2 * Math.PI;
  const coords: number[][] = [[round6(lon), round6(lat)]];
  for (let i = 1; i < n; i++) {
    heading += (random() - 0.5) * 0.6;
    lon += (Math.cos(heading) * 150) / (111_195 * Math.cos((lat * Math.PI) / 180));
    lat += (Math.sin(heading) * 150) / 111_195;
    coords.push([round6(lon), round6(lat)]);
  }
  return coords;
}

/** Event `i` of a synthetic feed; `version` changes its description and update time. */
export function syntheticEvent(i: number, seed = 42, version = 0): Record<string, unknown> {
  const random = seeded(seed * 1_000_003 + i);
  const lon = -128.5 + random() * 14; // -128.5 .. -114.5
  const lat = 48.4 + random() * 8; // 48.4 .. 56.4
  const kind = random();
  const [eventType, subtypes] =
    kind < 0.5 ? ['CONSTRUCTION', [pick(random, ['ROAD_MAINTENANCE', 'ROAD_CONSTRUCTION'])]]
    : kind < 0.75 ? ['INCIDENT', [pick(random, ['ACCIDENT', 'HAZARD', 'OBSTRUCTION'])]]
    : kind < 0.9 ? ['ROAD_CONDITION', [pick(random, SURFACES)]]
    : kind < 0.95 ? ['WEATHER_CONDITION', ['POOR_VISIBILITY']]
    : ['SPECIAL_EVENT', ['PLANNED_EVENT']];
  const severity = random() < 0.7 ? 'MINOR' : random() < 0.66 ? 'MAJOR' : 'MODERATE';
  const stateDraw = random();
  const state = stateDraw < 0.06 ? 'CLOSED' : stateDraw < 0.16 ? 'SOME_LANES_CLOSED' : stateDraw < 0.2 ? 'SINGLE_LANE_ALTERNATING' : undefined;
  const highway = pick(random, HIGHWAYS);
  const future = random() < 0.05;
  const updated = new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 9 * 86_400_000) + version * 60_000);
  const start = future ? new Date(Date.UTC(2026, 5, 1) + Math.floor(random() * 30) * 86_400_000) : new Date(updated.getTime() - 3_600_000);
  const geography = random() < 0.4 ? { type: 'Point', coordinates: [round6(lon), round6(lat)] } : { type: 'LineString', coordinates: line(random, lon, lat) };
  const id = `drivebc.ca/SYN-${i}`;
  return {
    jurisdiction_url: 'https://api.open511.gov.bc.ca/jurisdiction',
    url: `https://api.open511.gov.bc.ca/events/${id}`,
    id,
    headline: eventType,
    status: 'ACTIVE',
    created: new Date(updated.getTime() - 86_400_000).toISOString().replace('.000Z', '+00:00'),
    updated: updated.toISOString().replace('.000Z', '+00:00'),
    description: `${highway}, in both directions. ${eventType === 'ROAD_CONDITION' ? 'Slippery sections' : 'Work zone'} between exit ${i % 300} and exit ${(i % 300) + 7}${version ? ` (revision ${version})` : ''}. Expect delays and follow the direction of traffic control personnel. Last updated ${updated.toUTCString()}. (SYN-${i})`,
    schedule: { intervals: [`${start.toISOString().replace('.000Z', '+00:00')}/`] },
    event_type: eventType,
    event_subtypes: subtypes,
    severity,
    geography,
    roads: [{ name: highway, from: `Exit ${i % 300}`, to: `Exit ${(i % 300) + 7}`, direction: 'BOTH', ...(state ? { state } : {}) }],
    areas: [{ url: 'http://www.geonames.org/8630134', name: 'Synthetic District', id: 'drivebc.ca/9' }],
  };
}
