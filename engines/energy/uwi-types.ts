export type Meridian = 'W1' | 'W2' | 'W3' | 'W4' | 'W5' | 'W6';

export type UwiLocation =
  | { kind: 'dls'; lsd: number; section: number; township: number; range: number; meridian: Meridian }
  | { kind: 'nts'; quarterUnit: string; unit: number; block: string; series: number; mapArea: string; sheet: number }
  /** Federal Permit System: latitude like "62°20′N", longitude like "121°45′W" (the grid area's corner). */
  | { kind: 'fps'; unit: string; section: number; latitude: string; longitude: string }
  /** Geodetic: the 12 characters of the legal location as written (parsed, not interpreted). */
  | { kind: 'geodetic'; text: string };

export type UwiSystem = 'DLS' | 'NTS' | 'FPS' | 'GEODETIC';

/**
 * A Canadian Unique Well Identifier: survey system code, location exception, legal survey
 * location and event sequence, 16 characters in all.
 */
export interface Uwi {
  system: UwiSystem;
  systemCode: '1' | '2' | '3' | '4';
  /** Two characters, upper case. */
  locationException: string;
  /**
   * Two characters, upper case. FPS and geodetic locations take 12 of the 16 characters, leaving
   * one for the event sequence: it is reported zero-padded ('0' → '00') and written with one
   * character in `compact`.
   */
  eventSequence: string;
  location: UwiLocation;
  /**
   * Display form: '100/14-36-085-17W6/00', '200/D-096-H/094-A-15/00', for FPS
   * '300/F-55-6220-12145/00' (unit-section-latitude DDMM-longitude DDDMM), for geodetic
   * '400/799991049990/00' (the 12 characters as written).
   */
  canonical: string;
  /** The 16-character form, upper case: '100143608517W600'. */
  compact: string;
}
