/**
 * A small GTFS feed written for downtown Vancouver: its stops stand on real streets of
 * ../shared/data/osm/pelias-vancouver_canada.osm.pbf, so transit routing can walk along them.
 * Synthetic service (no Vancouver GTFS is among the shared data), used by the street-walking
 * tests and bench:transit-routing:streets.
 */
import type { FeedTexts } from './gtfs-fixtures.ts';

export const STOPS: Record<string, [number, number]> = {
  WATERFRONT: [-123.1115, 49.2856],
  STADIUM: [-123.1095, 49.2795],
  MAIN_ST: [-123.1003, 49.273],
  TERMINAL: [-123.1, 49.268],
  KEEFER: [-123.1005, 49.279],
  GASTOWN: [-123.109, 49.2845],
  GRANVILLE: [-123.1185, 49.283],
  BURRARD: [-123.1225, 49.2855],
};
const ROUTES: [string, string[]][] = [
  ['R1', ['WATERFRONT', 'STADIUM', 'MAIN_ST']],
  ['R2', ['KEEFER', 'MAIN_ST', 'TERMINAL']],
  ['R3', ['GASTOWN', 'GRANVILLE', 'BURRARD']],
];

/** Each route both ways every 10 minutes 06:00–21:50, 3 minutes between stops, daily in March 2026. */
export function vancouverFeed(): FeedTexts {
  const trips: string[] = [];
  const times: string[] = [];
  const hms = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:00`;
  for (const [route, stops] of ROUTES) {
    for (const [direction, calls] of [stops, [...stops].reverse()].entries()) {
      for (let start = 6 * 3600; start < 22 * 3600; start += 600) {
        const trip = `${route}-${direction}-${start}`;
        trips.push(`${route},DAILY,${trip}`);
        calls.forEach((stop, i) => times.push(`${trip},${hms(start + i * 180)},${hms(start + i * 180)},${stop},${i + 1}`));
      }
    }
  }
  return {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nV,Street Test,https://example.org,America/Vancouver\n',
    'stops.txt': `stop_id,stop_name,stop_lat,stop_lon\n${Object.entries(STOPS).map(([id, [lng, lat]]) => `${id},${id},${lat},${lng}`).join('\n')}\n`,
    'routes.txt': `route_id,agency_id,route_short_name,route_type\n${ROUTES.map(([r]) => `${r},V,${r},3`).join('\n')}\n`,
    'trips.txt': `route_id,service_id,trip_id\n${trips.join('\n')}\n`,
    'stop_times.txt': `trip_id,arrival_time,departure_time,stop_id,stop_sequence\n${times.join('\n')}\n`,
    'calendar.txt': 'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,20260301,20260331\n',
  };
}
