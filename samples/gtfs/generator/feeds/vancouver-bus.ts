import { every, type SampleFeed } from '../sample-feed.ts';

/**
 * Vancouver-area buses (America/Vancouver: since 2026-03-08 British Columbia stays at UTC−7 all
 * year). Granville St @ W Georgia St has a departure at least hourly around the clock: route 10
 * by day, NightBus N10 (times 25:40–28:40 on the previous service day) at night.
 */
export const vancouverBus: SampleFeed = {
  id: 'vancouver-bus',
  timezone: 'America/Vancouver',
  lang: 'en',
  agencies: [{ id: 'LMB', name: 'Lower Mainland Sample Bus', url: 'https://example.org/canmap/samples/vancouver-bus', phone: '604-555-0100' }],
  stops: [
    { id: 'WATERFRONT', code: '61001', name: 'Waterfront Station', lat: 49.2857, lon: -123.1118, wheelchair: 1 },
    { id: 'GRAN_GEORGIA', code: '61002', name: 'Granville St @ W Georgia St', lat: 49.2826, lon: -123.1183, wheelchair: 1 },
    { id: 'GRAN_BROADWAY', code: '61003', name: 'Granville St @ W Broadway', lat: 49.2635, lon: -123.1385, wheelchair: 1 },
    { id: 'GRAN_41', code: '61004', name: 'Granville St @ W 41st Ave', lat: 49.234, lon: -123.1403, wheelchair: 1 },
    { id: 'MARINE_DR', code: '61005', name: 'Marine Drive Station', lat: 49.2096, lon: -123.1169, wheelchair: 1 },
    { id: 'GRAN_SWMARINE', code: '61006', name: 'Granville St @ SW Marine Dr', lat: 49.2098, lon: -123.1403, wheelchair: 2 },
    { id: 'BRIGHOUSE', code: '61007', name: 'Richmond-Brighouse Station', lat: 49.168, lon: -123.1364, wheelchair: 1 },
    { id: 'COMM_BWY', code: '61008', name: 'Commercial-Broadway Station', lat: 49.2626, lon: -123.0692, wheelchair: 1 },
    { id: 'MAIN_BWY', code: '61009', name: 'Main St @ E Broadway', lat: 49.2629, lon: -123.1006, wheelchair: 1 },
    { id: 'CAMBIE_BWY', code: '61010', name: 'Cambie St @ W Broadway', lat: 49.2632, lon: -123.115, wheelchair: 1 },
    { id: 'UBC', code: '61011', name: 'UBC Exchange', lat: 49.2676, lon: -123.247, wheelchair: 1 },
  ],
  routes: [
    { id: '99', agencyId: 'LMB', shortName: '99', longName: 'Commercial-Broadway / UBC (B-Line)', type: 3, color: 'F47920', textColor: 'FFFFFF' },
    { id: '10', agencyId: 'LMB', shortName: '10', longName: 'Waterfront / Marine Drive Station via Granville', type: 3, color: '0060A9', textColor: 'FFFFFF' },
    { id: 'N10', agencyId: 'LMB', shortName: 'N10', longName: 'Downtown / Richmond-Brighouse Station (NightBus)', type: 3, color: '1E1E50', textColor: 'FFFFFF' },
  ],
  services: [
    { id: 'WKDY', days: '1111100' },
    { id: 'WKND', days: '0000011' },
    { id: 'DAILY', days: '1111111' },
  ],
  patterns: [
    {
      routeId: '99', serviceId: 'WKDY', directionId: 0, headsign: 'UBC',
      stops: [['COMM_BWY', 0], ['MAIN_BWY', 6], ['CAMBIE_BWY', 10], ['GRAN_BROADWAY', 14], ['UBC', 32]],
      starts: every('06:00', '20:00', 30),
    },
    {
      routeId: '99', serviceId: 'WKDY', directionId: 1, headsign: 'Commercial-Broadway Station',
      stops: [['UBC', 0], ['GRAN_BROADWAY', 18], ['CAMBIE_BWY', 22], ['MAIN_BWY', 26], ['COMM_BWY', 32]],
      starts: every('06:15', '20:15', 30),
    },
    {
      routeId: '99', serviceId: 'WKND', directionId: 0, headsign: 'UBC',
      stops: [['COMM_BWY', 0], ['MAIN_BWY', 6], ['CAMBIE_BWY', 10], ['GRAN_BROADWAY', 14], ['UBC', 30]],
      starts: every('08:00', '20:00', 60),
    },
    {
      routeId: '99', serviceId: 'WKND', directionId: 1, headsign: 'Commercial-Broadway Station',
      stops: [['UBC', 0], ['GRAN_BROADWAY', 16], ['CAMBIE_BWY', 20], ['MAIN_BWY', 24], ['COMM_BWY', 30]],
      starts: every('08:30', '20:30', 60),
    },
    {
      routeId: '10', serviceId: 'DAILY', directionId: 0, headsign: 'Marine Drive Station',
      stops: [['WATERFRONT', 0], ['GRAN_GEORGIA', 4], ['GRAN_BROADWAY', 12], ['GRAN_41', 21], ['MARINE_DR', 30]],
      starts: every('04:45', '24:45', 60),
    },
    {
      routeId: '10', serviceId: 'DAILY', directionId: 1, headsign: 'Downtown',
      stops: [['MARINE_DR', 0], ['GRAN_41', 9], ['GRAN_BROADWAY', 18], ['GRAN_GEORGIA', 26], ['WATERFRONT', 30]],
      starts: every('05:15', '24:15', 60),
    },
    {
      routeId: 'N10', serviceId: 'DAILY', directionId: 0, headsign: 'Richmond-Brighouse Station',
      stops: [['GRAN_GEORGIA', 0], ['GRAN_BROADWAY', 7], ['GRAN_41', 14], ['GRAN_SWMARINE', 19], ['BRIGHOUSE', 32]],
      starts: every('25:40', '28:40', 60),
    },
    {
      routeId: 'N10', serviceId: 'DAILY', directionId: 1, headsign: 'Downtown',
      stops: [['BRIGHOUSE', 0], ['GRAN_SWMARINE', 12], ['GRAN_41', 17], ['GRAN_BROADWAY', 24], ['GRAN_GEORGIA', 31]],
      starts: every('25:00', '28:00', 60),
    },
  ],
};
