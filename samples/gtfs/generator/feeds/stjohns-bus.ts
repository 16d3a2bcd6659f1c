import { every, type SampleFeed } from '../sample-feed.ts';

/**
 * St. John's, Newfoundland (America/St_Johns: UTC−3:30, −2:30 in summer, the one Canadian zone
 * with a half-hour offset). Water St @ Prescott St has a departure at least hourly around the
 * clock: route 1 by day, the Night Owl bus at night.
 */
export const stjohnsBus: SampleFeed = {
  id: 'stjohns-bus',
  timezone: 'America/St_Johns',
  lang: 'en',
  agencies: [{ id: 'AVB', name: 'Avalon Sample Bus', url: 'https://example.org/canmap/samples/stjohns-bus', phone: '709-555-0100' }],
  stops: [
    { id: 'WATER_PRESCOTT', code: '3001', name: 'Water St @ Prescott St (Downtown)', lat: 47.5662, lon: -52.7069, wheelchair: 1 },
    { id: 'CONFEDERATION', code: '3002', name: 'Confederation Building', lat: 47.5848, lon: -52.7082, wheelchair: 1 },
    { id: 'CHURCHILL_SQ', code: '3003', name: 'Churchill Square', lat: 47.5747, lon: -52.728, wheelchair: 1 },
    { id: 'MUN', code: '3004', name: 'Memorial University (University Centre)', lat: 47.5735, lon: -52.733, wheelchair: 1 },
    { id: 'HSC', code: '3005', name: 'Health Sciences Centre', lat: 47.5714, lon: -52.7427, wheelchair: 1 },
    { id: 'AVALON_MALL', code: '3006', name: 'Avalon Mall', lat: 47.561, lon: -52.7536, wheelchair: 1 },
    { id: 'VILLAGE', code: '3007', name: 'Village Shopping Centre', lat: 47.5366, lon: -52.7507, wheelchair: 1 },
    { id: 'TOPSAIL_COLUMBUS', code: '3008', name: 'Topsail Rd @ Columbus Dr', lat: 47.532, lon: -52.775, wheelchair: 2 },
    { id: 'MOUNT_PEARL', code: '3009', name: 'Mount Pearl (Centennial Square)', lat: 47.518, lon: -52.806, wheelchair: 1 },
    { id: 'AIRPORT', code: '3010', name: "St. John's International Airport", lat: 47.6186, lon: -52.7519, wheelchair: 1 },
  ],
  routes: [
    { id: '1', agencyId: 'AVB', shortName: '1', longName: 'Downtown / Avalon Mall via MUN', type: 3, color: '00843D', textColor: 'FFFFFF' },
    { id: '10', agencyId: 'AVB', shortName: '10', longName: 'Avalon Mall / Mount Pearl via Topsail Rd', type: 3, color: '00843D', textColor: 'FFFFFF' },
    { id: '3', agencyId: 'AVB', shortName: '3', longName: 'Downtown / Airport', type: 3, color: '6D2077', textColor: 'FFFFFF' },
    { id: 'N1', agencyId: 'AVB', shortName: 'N1', longName: 'Night Owl', type: 3, color: '222222', textColor: 'FFFFFF' },
  ],
  services: [
    { id: 'DAILY', days: '1111111' },
    { id: 'WKDY', days: '1111100' },
    { id: 'WKND', days: '0000011' },
  ],
  patterns: [
    {
      routeId: '1', serviceId: 'DAILY', directionId: 0, headsign: 'Avalon Mall',
      stops: [['WATER_PRESCOTT', 0], ['CHURCHILL_SQ', 9], ['MUN', 13], ['HSC', 17], ['AVALON_MALL', 24]],
      starts: every('05:45', '23:45', 60),
    },
    {
      routeId: '1', serviceId: 'DAILY', directionId: 1, headsign: 'Downtown',
      stops: [['AVALON_MALL', 0], ['HSC', 7], ['MUN', 11], ['CHURCHILL_SQ', 15], ['WATER_PRESCOTT', 24]],
      starts: every('06:15', '23:15', 60),
    },
    {
      routeId: '1', serviceId: 'WKDY', directionId: 0, headsign: 'Avalon Mall',
      stops: [['WATER_PRESCOTT', 0], ['CHURCHILL_SQ', 10], ['MUN', 14], ['HSC', 19], ['AVALON_MALL', 27]],
      starts: every('07:15', '17:15', 60),
    },
    {
      routeId: '1', serviceId: 'WKDY', directionId: 1, headsign: 'Downtown',
      stops: [['AVALON_MALL', 0], ['HSC', 8], ['MUN', 13], ['CHURCHILL_SQ', 17], ['WATER_PRESCOTT', 27]],
      starts: every('07:45', '17:45', 60),
    },
    {
      routeId: '10', serviceId: 'WKDY', directionId: 0, headsign: 'Mount Pearl',
      stops: [['AVALON_MALL', 0], ['VILLAGE', 9], ['TOPSAIL_COLUMBUS', 15], ['MOUNT_PEARL', 24]],
      starts: every('06:30', '21:30', 60),
    },
    {
      routeId: '10', serviceId: 'WKDY', directionId: 1, headsign: 'Avalon Mall',
      stops: [['MOUNT_PEARL', 0], ['TOPSAIL_COLUMBUS', 9], ['VILLAGE', 15], ['AVALON_MALL', 24]],
      starts: every('07:00', '22:00', 60),
    },
    {
      routeId: '10', serviceId: 'WKND', directionId: 0, headsign: 'Mount Pearl',
      stops: [['AVALON_MALL', 0], ['VILLAGE', 8], ['TOPSAIL_COLUMBUS', 14], ['MOUNT_PEARL', 22]],
      starts: every('08:30', '20:30', 120),
    },
    {
      routeId: '10', serviceId: 'WKND', directionId: 1, headsign: 'Avalon Mall',
      stops: [['MOUNT_PEARL', 0], ['TOPSAIL_COLUMBUS', 8], ['VILLAGE', 14], ['AVALON_MALL', 22]],
      starts: every('09:00', '21:00', 120),
    },
    {
      routeId: '3', serviceId: 'DAILY', directionId: 0, headsign: 'Airport',
      stops: [['WATER_PRESCOTT', 0], ['CONFEDERATION', 8], ['AIRPORT', 22]],
      starts: every('06:00', '22:00', 120),
    },
    {
      routeId: '3', serviceId: 'DAILY', directionId: 1, headsign: 'Downtown',
      stops: [['AIRPORT', 0], ['CONFEDERATION', 14], ['WATER_PRESCOTT', 22]],
      starts: every('07:00', '23:00', 120),
    },
    {
      routeId: 'N1', serviceId: 'DAILY', directionId: 0, headsign: 'Mount Pearl',
      stops: [['WATER_PRESCOTT', 0], ['MUN', 10], ['AVALON_MALL', 17], ['VILLAGE', 24], ['MOUNT_PEARL', 33]],
      starts: every('00:15', '05:15', 60),
    },
    {
      routeId: 'N1', serviceId: 'DAILY', directionId: 1, headsign: 'Downtown',
      stops: [['MOUNT_PEARL', 0], ['VILLAGE', 9], ['AVALON_MALL', 16], ['MUN', 23], ['WATER_PRESCOTT', 33]],
      starts: every('00:45', '04:45', 60),
    },
  ],
};
