/**
 * The shapes a UWI is written in, read into raw parts without judging their values (uwi-check.ts
 * does that), so a UWI-shaped text with a bad value is still recognised and its part named.
 */

export type RawLocation =
  | { kind: 'dls'; lsd: string; section: string; township: string; range: string; meridian: string }
  | { kind: 'nts'; quarterUnit: string; unit: string; block: string; series: string; mapArea: string; sheet: string }
  | { kind: 'fps'; unit: string; section: string; latitude: string; longitude: string }
  | { kind: 'geodetic'; text: string };

export interface RawUwi {
  systemCode: string;
  locationException: string;
  location: RawLocation;
  /** Undefined when the text stops after the legal location. */
  eventSequence: string | undefined;
  /** Written as the 16-character form. */
  compact: boolean;
  /** A '/' follows the three-character prefix: written as a UWI even without its event sequence. */
  slashAfterPrefix: boolean;
}

/** Longest text worth reading: a display form with spaces is about 30 characters. */
export const MAX_UWI_TEXT = 64;

/** Upper case, trimmed, an optional leading "UWI" / "UWI:" dropped. */
export function normalizeUwiText(text: string): string {
  return text.trim().toUpperCase().replace(/^UWI\s*[:#]?\s*/, '');
}

// Survey system digit and location exception; the exception is loose so a bad one can be named.
const PREFIX = '(\\d)([^\\s/\\-.]{2})';
const SEP_OPT = '[\\s/\\-.]*';
const SEP = '[\\s/\\-.]+';
const NUM = '(\\d{1,3})';
const EVENT_OPT = (sep: string) => `(?:${sep}([0-9A-Z]{1,2}))?`;

const DISPLAY_DLS = new RegExp(`^${PREFIX}${SEP_OPT}${NUM}${SEP}${NUM}${SEP}${NUM}${SEP}${NUM}[\\s\\-]*W[\\s\\-]*(\\d)${EVENT_OPT(SEP_OPT)}$`);
// a separator before the event sequence: "A1500" could be sheet 15 + event 00 or sheet 1 + event 500
const DISPLAY_NTS = new RegExp(`^${PREFIX}${SEP_OPT}([A-Z])${SEP_OPT}${NUM}${SEP_OPT}([A-Z])${SEP_OPT}${NUM}${SEP_OPT}([A-Z])${SEP_OPT}(\\d{1,2})${EVENT_OPT(SEP)}$`);
const DISPLAY_FPS = new RegExp(`^${PREFIX}${SEP_OPT}([A-Z])${SEP_OPT}${NUM}${SEP}(\\d{4})${SEP}(\\d{5})${EVENT_OPT(SEP)}$`);
const DISPLAY_GEODETIC = new RegExp(`^${PREFIX}${SEP}(\\d{12})${EVENT_OPT(SEP)}$`);

const COMPACT = /^(\d)([0-9A-Z]{2})([0-9A-Z]{13})$/;
const COMPACT_DLS = /^(\d{2})(\d{2})(\d{3})(\d{2})W(\d)([0-9A-Z]{2})$/;
const COMPACT_NTS = /^([A-Z])(\d{3})([A-Z])(\d{3})([A-Z])(\d{2})([0-9A-Z]{2})$/;
const COMPACT_FPS = /^([A-Z])(\d{2})(\d{4})(\d{5})([0-9A-Z])$/;
const COMPACT_GEODETIC = /^(\d{12})([0-9A-Z])$/;

/** The legal location and event sequence of a compact UWI's last 13 characters, if shaped like one. */
function compactBody(body: string): { location: RawLocation; eventSequence: string } | null {
  let m = COMPACT_DLS.exec(body);
  if (m) return { location: { kind: 'dls', lsd: m[1]!, section: m[2]!, township: m[3]!, range: m[4]!, meridian: m[5]! }, eventSequence: m[6]! };
  m = COMPACT_NTS.exec(body);
  if (m) {
    return {
      location: { kind: 'nts', quarterUnit: m[1]!, unit: m[2]!, block: m[3]!, series: m[4]!, mapArea: m[5]!, sheet: m[6]! },
      eventSequence: m[7]!,
    };
  }
  m = COMPACT_FPS.exec(body);
  if (m) return { location: { kind: 'fps', unit: m[1]!, section: m[2]!, latitude: m[3]!, longitude: m[4]! }, eventSequence: m[5]! };
  m = COMPACT_GEODETIC.exec(body);
  if (m) return { location: { kind: 'geodetic', text: m[1]! }, eventSequence: m[2]! };
  return null;
}

/** Reads normalized text (normalizeUwiText) as a UWI's raw parts; null when it is not shaped like one. */
export function readUwi(text: string): RawUwi | null {
  if (text.length > MAX_UWI_TEXT) return null;
  const compact = COMPACT.exec(text);
  if (compact) {
    const body = compactBody(compact[3]!);
    if (body) return { systemCode: compact[1]!, locationException: compact[2]!, ...body, compact: true, slashAfterPrefix: false };
  }
  const base = (m: RegExpExecArray) => ({ systemCode: m[1]!, locationException: m[2]!, compact: false, slashAfterPrefix: text[3] === '/' });
  let m = DISPLAY_DLS.exec(text);
  if (m) {
    return { ...base(m), location: { kind: 'dls', lsd: m[3]!, section: m[4]!, township: m[5]!, range: m[6]!, meridian: m[7]! }, eventSequence: m[8] };
  }
  m = DISPLAY_NTS.exec(text);
  if (m) {
    return {
      ...base(m),
      location: { kind: 'nts', quarterUnit: m[3]!, unit: m[4]!, block: m[5]!, series: m[6]!, mapArea: m[7]!, sheet: m[8]! },
      eventSequence: m[9],
    };
  }
  m = DISPLAY_FPS.exec(text);
  if (m) return { ...base(m), location: { kind: 'fps', unit: m[3]!, section: m[4]!, latitude: m[5]!, longitude: m[6]! }, eventSequence: m[7] };
  m = DISPLAY_GEODETIC.exec(text);
  if (m) return { ...base(m), location: { kind: 'geodetic', text: m[3]! }, eventSequence: m[4] };
  return null;
}
