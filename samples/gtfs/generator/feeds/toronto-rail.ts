import { every, merge, type SampleFeed } from '../sample-feed.ts';

/**
 * Toronto-area commuter rail (America/Toronto). Union Station and Oakville are parent stations
 * (location_type 1) whose child platforms and bus bays carry the stop_times; stop_sequence
 * counts in tens. Union Station has a departure at least hourly around the clock: trains from
 * its platforms by day, the overnight bus from its bus terminal at night.
 */
export const torontoRail: SampleFeed = {
  id: 'toronto-rail',
  timezone: 'America/Toronto',
  lang: 'en',
  sequenceStep: 10,
  agencies: [{ id: 'LSR', name: 'Lakeshore Sample Rail', url: 'https://example.org/canmap/samples/toronto-rail', phone: '416-555-0100' }],
  stops: [
    { id: 'UNION', name: 'Union Station', lat: 43.6453, lon: -79.3806, locationType: 1, wheelchair: 1 },
    { id: 'UNION_P1', name: 'Union Station Platform 1', lat: 43.6449, lon: -79.3814, parent: 'UNION', platformCode: '1', wheelchair: 1 },
    { id: 'UNION_P2', name: 'Union Station Platform 2', lat: 43.6448, lon: -79.3806, parent: 'UNION', platformCode: '2', wheelchair: 1 },
    { id: 'UNION_P3', name: 'Union Station Platform 3', lat: 43.6447, lon: -79.3798, parent: 'UNION', platformCode: '3', wheelchair: 1 },
    { id: 'UNION_BUS', name: 'Union Station Bus Terminal', lat: 43.6427, lon: -79.3772, parent: 'UNION', wheelchair: 1 },
    { id: 'EXHIBITION', name: 'Exhibition', lat: 43.6357, lon: -79.4186, wheelchair: 1 },
    { id: 'PORT_CREDIT', name: 'Port Credit', lat: 43.5553, lon: -79.5871, wheelchair: 1 },
    { id: 'CLARKSON', name: 'Clarkson', lat: 43.5116, lon: -79.6343, wheelchair: 1 },
    { id: 'OAKVILLE', name: 'Oakville', lat: 43.4553, lon: -79.6826, locationType: 1, wheelchair: 1 },
    { id: 'OAKVILLE_P1', name: 'Oakville Platform 1', lat: 43.4556, lon: -79.6829, parent: 'OAKVILLE', platformCode: '1', wheelchair: 1 },
    { id: 'OAKVILLE_P2', name: 'Oakville Platform 2', lat: 43.4551, lon: -79.6823, parent: 'OAKVILLE', platformCode: '2', wheelchair: 1 },
    { id: 'OAKVILLE_BUS', name: 'Oakville Station Bus Loop', lat: 43.4560, lon: -79.6815, parent: 'OAKVILLE', wheelchair: 1 },
    { id: 'BURLINGTON', name: 'Burlington', lat: 43.3413, lon: -79.8093, wheelchair: 1 },
    { id: 'DANFORTH', name: 'Danforth', lat: 43.6866, lon: -79.3001, wheelchair: 2 },
    { id: 'GUILDWOOD', name: 'Guildwood', lat: 43.755, lon: -79.1985, wheelchair: 1 },
    { id: 'PICKERING', name: 'Pickering', lat: 43.8313, lon: -79.0856, wheelchair: 1 },
    { id: 'AJAX', name: 'Ajax', lat: 43.8484, lon: -79.0418, wheelchair: 1 },
    { id: 'OSHAWA', name: 'Oshawa', lat: 43.8706, lon: -78.885, wheelchair: 1 },
  ],
  routes: [
    { id: 'LW', agencyId: 'LSR', shortName: 'LW', longName: 'Lakeshore West', type: 2, color: '98002E', textColor: 'FFFFFF' },
    { id: 'LE', agencyId: 'LSR', shortName: 'LE', longName: 'Lakeshore East', type: 2, color: 'EE3124', textColor: 'FFFFFF' },
    { id: 'LN', agencyId: 'LSR', shortName: 'LN', longName: 'Lakeshore West Overnight Bus', type: 3, color: '3D3D3D', textColor: 'FFFFFF' },
  ],
  services: [
    { id: 'WKDY', days: '1111100' },
    { id: 'WKND', days: '0000011' },
    { id: 'DAILY', days: '1111111' },
  ],
  patterns: [
    {
      routeId: 'LW', serviceId: 'WKDY', directionId: 0, headsign: 'Burlington', firstTrainNumber: 1001,
      stops: [['UNION_P1', 0], ['EXHIBITION', 6], ['PORT_CREDIT', 18], ['CLARKSON', 25], ['OAKVILLE_P1', 32, 33], ['BURLINGTON', 47]],
      starts: merge(every('05:15', '23:15', 60), every('16:45', '17:45', 60)),
    },
    {
      routeId: 'LW', serviceId: 'WKDY', directionId: 1, headsign: 'Union Station', firstTrainNumber: 1000,
      stops: [['BURLINGTON', 0], ['OAKVILLE_P2', 14, 15], ['CLARKSON', 22], ['PORT_CREDIT', 29], ['EXHIBITION', 41], ['UNION_P2', 48]],
      starts: merge(every('05:40', '22:40', 60), every('06:10', '07:10', 60)),
    },
    {
      routeId: 'LE', serviceId: 'WKDY', directionId: 0, headsign: 'Oshawa', firstTrainNumber: 2001,
      stops: [['UNION_P3', 0], ['DANFORTH', 9], ['GUILDWOOD', 20], ['PICKERING', 31], ['AJAX', 36], ['OSHAWA', 47]],
      starts: merge(every('05:45', '23:45', 60), every('16:15', '17:15', 60)),
    },
    {
      routeId: 'LE', serviceId: 'WKDY', directionId: 1, headsign: 'Union Station', firstTrainNumber: 2000,
      stops: [['OSHAWA', 0], ['AJAX', 11], ['PICKERING', 16], ['GUILDWOOD', 27], ['DANFORTH', 38], ['UNION_P3', 47]],
      starts: merge(every('05:20', '22:20', 60), every('06:50', '07:50', 60)),
    },
    {
      routeId: 'LW', serviceId: 'WKND', directionId: 0, headsign: 'Burlington', firstTrainNumber: 1501,
      stops: [['UNION_P1', 0], ['EXHIBITION', 6], ['PORT_CREDIT', 18], ['CLARKSON', 25], ['OAKVILLE_P1', 32, 33], ['BURLINGTON', 47]],
      starts: every('07:15', '23:15', 120),
    },
    {
      routeId: 'LW', serviceId: 'WKND', directionId: 1, headsign: 'Union Station', firstTrainNumber: 1500,
      stops: [['BURLINGTON', 0], ['OAKVILLE_P2', 14, 15], ['CLARKSON', 22], ['PORT_CREDIT', 29], ['EXHIBITION', 41], ['UNION_P2', 48]],
      starts: every('07:40', '21:40', 120),
    },
    {
      routeId: 'LE', serviceId: 'WKND', directionId: 0, headsign: 'Oshawa', firstTrainNumber: 2501,
      stops: [['UNION_P3', 0], ['DANFORTH', 9], ['GUILDWOOD', 20], ['PICKERING', 31], ['AJAX', 36], ['OSHAWA', 47]],
      starts: every('08:15', '22:15', 120),
    },
    {
      routeId: 'LE', serviceId: 'WKND', directionId: 1, headsign: 'Union Station', firstTrainNumber: 2500,
      stops: [['OSHAWA', 0], ['AJAX', 11], ['PICKERING', 16], ['GUILDWOOD', 27], ['DANFORTH', 38], ['UNION_P3', 47]],
      starts: every('07:20', '21:20', 120),
    },
    {
      routeId: 'LN', serviceId: 'DAILY', directionId: 0, headsign: 'Burlington',
      stops: [['UNION_BUS', 0], ['PORT_CREDIT', 25], ['CLARKSON', 34], ['OAKVILLE_BUS', 43], ['BURLINGTON', 60]],
      starts: every('00:15', '06:15', 60),
    },
    {
      routeId: 'LN', serviceId: 'DAILY', directionId: 1, headsign: 'Union Station',
      stops: [['BURLINGTON', 0], ['OAKVILLE_BUS', 17], ['CLARKSON', 26], ['PORT_CREDIT', 35], ['UNION_BUS', 60]],
      starts: every('00:30', '05:30', 60),
    },
  ],
};
