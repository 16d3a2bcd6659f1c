import { every, merge, type SampleFeed } from '../sample-feed.ts';

/**
 * Montréal buses with French names (agency_timezone America/Montreal, the zone name Québec feeds
 * still publish; it is an alias of America/Toronto). calendar_dates.txt swaps the weekday service
 * for the weekend one on holidays (Fête nationale, Christmas, New Year's Day) and adds the
 * NAVETTE service, which has no calendar.txt row, on New Year's Eve only. Station Berri-UQAM
 * has a 747 departure at least hourly around the clock.
 */
export const montrealBus: SampleFeed = {
  id: 'montreal-bus',
  timezone: 'America/Montreal',
  lang: 'fr',
  agencies: [{ id: 'STEM', name: "Société de transport d'exemple de Montréal", url: 'https://example.org/canmap/samples/montreal-bus', phone: '514-555-0100' }],
  stops: [
    { id: 'BERRI', code: '50101', name: 'Station Berri-UQAM', lat: 45.5152, lon: -73.5611, wheelchair: 1 },
    { id: 'RL_PEEL', code: '50102', name: 'René-Lévesque / Peel', lat: 45.4983, lon: -73.57, wheelchair: 1 },
    { id: 'LIONEL_GROULX', code: '50103', name: 'Station Lionel-Groulx', lat: 45.4829, lon: -73.5796, wheelchair: 1 },
    { id: 'AEROPORT', code: '50104', name: 'Aéroport Montréal-Trudeau (YUL)', lat: 45.4577, lon: -73.7497, wheelchair: 1 },
    { id: 'SHER_ATWATER', code: '50105', name: 'Sherbrooke / Atwater', lat: 45.4913, lon: -73.5855, wheelchair: 1 },
    { id: 'SHER_PEEL', code: '50106', name: 'Sherbrooke / Peel', lat: 45.5003, lon: -73.5786, wheelchair: 1 },
    { id: 'SHER_ST_LAURENT', code: '50107', name: 'Sherbrooke / Saint-Laurent', lat: 45.5113, lon: -73.5687, wheelchair: 1 },
    { id: 'SHER_PAPINEAU', code: '50108', name: 'Sherbrooke / Papineau', lat: 45.5262, lon: -73.56, wheelchair: 2 },
    { id: 'PIE_IX', code: '50109', name: 'Station Pie-IX', lat: 45.5536, lon: -73.5516, wheelchair: 1 },
    { id: 'PLACE_ARMES', code: '50110', name: "Place-d'Armes", lat: 45.5061, lon: -73.5599, wheelchair: 1 },
    { id: 'VIEUX_PORT', code: '50111', name: "Quai de l'Horloge, Vieux-Port", lat: 45.5117, lon: -73.5474, wheelchair: 1 },
  ],
  routes: [
    { id: '747', agencyId: 'STEM', shortName: '747', longName: 'Aéroport P.-E.-Trudeau / Centre-ville', type: 3, color: '009EE0', textColor: 'FFFFFF' },
    { id: '24', agencyId: 'STEM', shortName: '24', longName: 'Sherbrooke', type: 3, color: '009EE0', textColor: 'FFFFFF' },
    { id: '777', agencyId: 'STEM', shortName: '777', longName: 'Navette du Vieux-Port (service spécial)', type: 3, color: 'C8102E', textColor: 'FFFFFF' },
  ],
  services: [
    { id: 'SEM', days: '1111100' },
    { id: 'FDS', days: '0000011' },
    { id: 'TLJ', days: '1111111' },
  ],
  exceptions: [
    { serviceId: 'SEM', date: '20260624', type: 2 },
    { serviceId: 'FDS', date: '20260624', type: 1 },
    { serviceId: 'SEM', date: '20261225', type: 2 },
    { serviceId: 'FDS', date: '20261225', type: 1 },
    { serviceId: 'NAVETTE', date: '20261231', type: 1 },
    { serviceId: 'SEM', date: '20270101', type: 2 },
    { serviceId: 'FDS', date: '20270101', type: 1 },
    { serviceId: 'SEM', date: '20270624', type: 2 },
    { serviceId: 'FDS', date: '20270624', type: 1 },
    { serviceId: 'NAVETTE', date: '20271231', type: 1 },
  ],
  patterns: [
    {
      routeId: '747', serviceId: 'TLJ', directionId: 0, headsign: 'Centre-ville',
      stops: [['AEROPORT', 0], ['LIONEL_GROULX', 25], ['RL_PEEL', 33], ['BERRI', 42]],
      starts: every('00:30', '23:30', 60),
    },
    {
      routeId: '747', serviceId: 'TLJ', directionId: 1, headsign: 'Aéroport P.-E.-Trudeau',
      stops: [['BERRI', 0], ['RL_PEEL', 9], ['LIONEL_GROULX', 17], ['AEROPORT', 42]],
      starts: merge(every('00:10', '23:10', 60), every('07:40', '19:40', 60)),
    },
    {
      routeId: '24', serviceId: 'SEM', directionId: 0, headsign: 'Est — Station Pie-IX',
      stops: [['SHER_ATWATER', 0], ['SHER_PEEL', 5], ['SHER_ST_LAURENT', 12], ['SHER_PAPINEAU', 20], ['PIE_IX', 32]],
      starts: every('06:00', '22:00', 60),
    },
    {
      routeId: '24', serviceId: 'SEM', directionId: 1, headsign: 'Ouest — Atwater',
      stops: [['PIE_IX', 0], ['SHER_PAPINEAU', 12], ['SHER_ST_LAURENT', 20], ['SHER_PEEL', 27], ['SHER_ATWATER', 32]],
      starts: every('06:20', '22:20', 60),
    },
    {
      routeId: '24', serviceId: 'FDS', directionId: 0, headsign: 'Est — Station Pie-IX',
      stops: [['SHER_ATWATER', 0], ['SHER_PEEL', 5], ['SHER_ST_LAURENT', 11], ['SHER_PAPINEAU', 18], ['PIE_IX', 29]],
      starts: every('08:00', '21:00', 60),
    },
    {
      routeId: '24', serviceId: 'FDS', directionId: 1, headsign: 'Ouest — Atwater',
      stops: [['PIE_IX', 0], ['SHER_PAPINEAU', 11], ['SHER_ST_LAURENT', 18], ['SHER_PEEL', 24], ['SHER_ATWATER', 29]],
      starts: every('08:30', '21:30', 60),
    },
    {
      routeId: '777', serviceId: 'NAVETTE', directionId: 0, headsign: 'Vieux-Port',
      stops: [['BERRI', 0], ['PLACE_ARMES', 6], ['VIEUX_PORT', 11]],
      starts: every('18:00', '25:00', 30),
    },
    {
      routeId: '777', serviceId: 'NAVETTE', directionId: 1, headsign: 'Station Berri-UQAM',
      stops: [['VIEUX_PORT', 0], ['PLACE_ARMES', 6], ['BERRI', 12]],
      starts: every('18:15', '25:45', 30),
    },
  ],
};
