import { every, hm, merge, type SampleFeed } from '../sample-feed.ts';

/**
 * Halifax harbour ferries (America/Halifax). The LATE service (Friday and Saturday nights) runs
 * crossings after midnight written as 24:15:00 and 25:05:00 of the Friday or Saturday service
 * day. The Halifax Ferry Terminal is a parent station over its ferry dock and bus stop; the
 * Alderney terminal alone has a departure at least hourly around the clock (ferry by day,
 * the Harbour Night Bus at night).
 */
export const halifaxFerry: SampleFeed = {
  id: 'halifax-ferry',
  timezone: 'America/Halifax',
  lang: 'en',
  agencies: [{ id: 'HHF', name: 'Halifax Harbour Sample Ferry', url: 'https://example.org/canmap/samples/halifax-ferry', phone: '902-555-0100' }],
  stops: [
    { id: 'HFX', name: 'Halifax Ferry Terminal', lat: 44.6465, lon: -63.5707, locationType: 1, wheelchair: 1 },
    { id: 'HFX_DOCK', code: '1001', name: 'Halifax Ferry Terminal (ferry dock)', lat: 44.6463, lon: -63.5698, parent: 'HFX', wheelchair: 1 },
    { id: 'HFX_BUS', code: '1002', name: 'Halifax Ferry Terminal (Lower Water St bus stop)', lat: 44.6469, lon: -63.5716, parent: 'HFX', wheelchair: 1 },
    { id: 'ALDERNEY', code: '1003', name: 'Alderney Ferry Terminal, Dartmouth', lat: 44.6652, lon: -63.5678, wheelchair: 1 },
    { id: 'WOODSIDE', code: '1004', name: 'Woodside Ferry Terminal, Dartmouth', lat: 44.6527, lon: -63.5478, wheelchair: 1 },
    { id: 'SPRING_GARDEN', code: '1005', name: 'Spring Garden Rd @ Queen St', lat: 44.6429, lon: -63.5772, wheelchair: 1 },
    { id: 'NORTH_AGRICOLA', code: '1006', name: 'North St @ Agricola St', lat: 44.6585, lon: -63.587, wheelchair: 2 },
    { id: 'BRIDGE_TERMINAL', code: '1007', name: 'Bridge Terminal, Dartmouth', lat: 44.6726, lon: -63.5785, wheelchair: 1 },
  ],
  routes: [
    { id: 'ALD', agencyId: 'HHF', shortName: 'FRY-A', longName: 'Alderney Ferry', type: 4, color: '00467F', textColor: 'FFFFFF' },
    { id: 'WOOD', agencyId: 'HHF', shortName: 'FRY-W', longName: 'Woodside Ferry', type: 4, color: '0086C3', textColor: 'FFFFFF' },
    { id: 'N1', agencyId: 'HHF', shortName: 'N1', longName: 'Harbour Night Bus', type: 3, color: '2B2B2B', textColor: 'FFFFFF' },
  ],
  services: [
    { id: 'DAILY', days: '1111111' },
    { id: 'WKDY', days: '1111100' },
    { id: 'LATE', days: '0000110' },
  ],
  patterns: [
    {
      routeId: 'ALD', serviceId: 'DAILY', directionId: 0, headsign: 'Alderney (Dartmouth)',
      stops: [['HFX_DOCK', 0], ['ALDERNEY', 12]],
      starts: every('06:15', '23:45', 30),
    },
    {
      routeId: 'ALD', serviceId: 'DAILY', directionId: 1, headsign: 'Halifax',
      stops: [['ALDERNEY', 0], ['HFX_DOCK', 12]],
      starts: every('06:00', '23:30', 30),
    },
    {
      routeId: 'ALD', serviceId: 'LATE', directionId: 0, headsign: 'Alderney (Dartmouth)',
      stops: [['HFX_DOCK', 0], ['ALDERNEY', 12]],
      starts: [hm('24:15'), hm('24:53')],
    },
    {
      routeId: 'ALD', serviceId: 'LATE', directionId: 1, headsign: 'Halifax',
      stops: [['ALDERNEY', 0], ['HFX_DOCK', 12]],
      starts: [hm('24:00'), hm('24:33'), hm('25:05')],
    },
    {
      routeId: 'WOOD', serviceId: 'WKDY', directionId: 0, headsign: 'Woodside (Dartmouth)',
      stops: [['HFX_DOCK', 0], ['WOODSIDE', 14]],
      starts: merge(every('06:50', '09:20', 30), every('15:50', '18:50', 30)),
    },
    {
      routeId: 'WOOD', serviceId: 'WKDY', directionId: 1, headsign: 'Halifax',
      stops: [['WOODSIDE', 0], ['HFX_DOCK', 14]],
      starts: merge(every('06:30', '09:00', 30), every('15:30', '18:30', 30)),
    },
    {
      routeId: 'N1', serviceId: 'DAILY', directionId: 0, headsign: 'Alderney via Macdonald Bridge',
      stops: [['HFX_BUS', 0], ['SPRING_GARDEN', 5], ['NORTH_AGRICOLA', 12], ['BRIDGE_TERMINAL', 20], ['ALDERNEY', 28]],
      starts: every('00:20', '05:20', 60),
    },
    {
      routeId: 'N1', serviceId: 'DAILY', directionId: 1, headsign: 'Halifax Ferry Terminal',
      stops: [['ALDERNEY', 0], ['BRIDGE_TERMINAL', 8], ['NORTH_AGRICOLA', 16], ['SPRING_GARDEN', 23], ['HFX_BUS', 28]],
      starts: every('00:30', '05:30', 60),
    },
  ],
};
