/**
 * The jurisdictions canmap reads road data from. Road events (volume 2) cover CA-BC only;
 * closure snapshots for route warnings (volume 3) cover all three.
 */
export type Jurisdiction = 'CA-BC' | 'CA-AB' | 'CA-ON';

export interface JurisdictionInfo {
  code: Jurisdiction;
  name: string;
  /** Dataset label: `source` of records and of meta. */
  source: string;
  attribution: string;
  /** Zone of publisher times written without an offset. */
  timeZone: string;
}

export const JURISDICTIONS: Record<Jurisdiction, JurisdictionInfo> = {
  'CA-BC': {
    code: 'CA-BC',
    name: 'British Columbia',
    source: 'DriveBC Open511 events',
    attribution: 'Contains information licensed under the Open Government Licence – British Columbia (DriveBC).',
    timeZone: 'America/Vancouver',
  },
  'CA-AB': {
    code: 'CA-AB',
    name: 'Alberta',
    source: '511 Alberta events',
    attribution: 'Contains information from 511 Alberta, Government of Alberta.',
    timeZone: 'America/Edmonton',
  },
  'CA-ON': {
    code: 'CA-ON',
    name: 'Ontario',
    source: 'Ontario 511 events',
    attribution: 'Contains information from Ontario 511, Ministry of Transportation of Ontario.',
    timeZone: 'America/Toronto',
  },
};

/** Jurisdictions whose road events the API serves. */
export const ROAD_EVENT_JURISDICTIONS: Jurisdiction[] = ['CA-BC'];

/** Jurisdictions whose closures route warnings check. */
export const CLOSURE_JURISDICTIONS: Jurisdiction[] = ['CA-BC', 'CA-AB', 'CA-ON'];

export const eventsFeed = (j: Jurisdiction) => `events:${j}`;
export const closuresFeed = (j: Jurisdiction) => `closures:${j}`;
