import { UwiParseError, type UwiPart } from './uwi-error.ts';
import type { RawLocation, RawUwi } from './uwi-grammar.ts';
import type { Meridian, Uwi, UwiLocation, UwiSystem } from './uwi-types.ts';

const SYSTEMS: Readonly<Record<string, { system: UwiSystem; kind: RawLocation['kind']; label: string }>> = {
  '1': { system: 'DLS', kind: 'dls', label: 'DLS' },
  '2': { system: 'NTS', kind: 'nts', label: 'NTS' },
  '3': { system: 'FPS', kind: 'fps', label: 'federal permit system' },
  '4': { system: 'GEODETIC', kind: 'geodetic', label: 'geodetic' },
};
const KIND_LABELS: Readonly<Record<RawLocation['kind'], string>> = { dls: 'DLS', nts: 'NTS', fps: 'federal permit system', geodetic: 'geodetic' };

/** NTS series of the BC grid, the only NTS UWIs there are (northeast BC). */
const BC_GRID_SERIES = [82, 83, 92, 93, 94, 102, 103, 104, 114];

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function fail(part: UwiPart, message: string): never {
  throw new UwiParseError(part, message);
}

function inRange(part: UwiPart, label: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!(value >= min && value <= max)) fail(part, `UWI ${label} ${value} is out of range (${min} to ${max})`);
  return value;
}

function letterIn(part: UwiPart, label: string, letter: string, last: string): string {
  if (letter < 'A' || letter > last) fail(part, `UWI ${label} ${letter} is out of range (A to ${last})`);
  return letter;
}

/** "6220" → "62°20′N" when degrees and minutes can be a federal permit grid latitude. */
function gridAngle(digits: string, degreeDigits: number, min: number, max: number, hemisphere: string, label: string): string {
  const degrees = Number(digits.slice(0, degreeDigits));
  const minutes = Number(digits.slice(degreeDigits));
  if (degrees < min || degrees > max || minutes >= 60) {
    fail('legal_location', `UWI grid ${label} ${digits} is not a federal permit grid ${label} (degrees ${min} to ${max}, then minutes)`);
  }
  return `${degrees}°${pad(minutes, 2)}′${hemisphere}`;
}

interface Checked {
  location: UwiLocation;
  /** The legal location as the display form writes it, and as the compact form does. */
  display: string;
  compact: string;
}

function checkLocation(raw: RawLocation): Checked {
  switch (raw.kind) {
    case 'dls': {
      const lsd = inRange('lsd', 'LSD', raw.lsd, 1, 16);
      const section = inRange('section', 'section', raw.section, 1, 36);
      const township = inRange('township', 'township', raw.township, 1, 126);
      const range = inRange('range', 'range', raw.range, 1, 34);
      const m = Number(raw.meridian);
      if (m < 1 || m > 6) fail('meridian', `UWI meridian W${m} is out of range (W1 to W6)`);
      const meridian = `W${m}` as Meridian;
      const text = `${pad(lsd, 2)}-${pad(section, 2)}-${pad(township, 3)}-${pad(range, 2)}${meridian}`;
      return { location: { kind: 'dls', lsd, section, township, range, meridian }, display: text, compact: text.replace(/-/g, '') };
    }
    case 'nts': {
      const quarterUnit = letterIn('quarter_unit', 'quarter unit', raw.quarterUnit, 'D');
      const unit = inRange('unit', 'unit', raw.unit, 1, 100);
      const block = letterIn('block', 'block', raw.block, 'L');
      const series = Number(raw.series);
      if (!BC_GRID_SERIES.includes(series)) {
        fail('series', `UWI series ${series} is not an NTS series of the BC grid (${BC_GRID_SERIES.map((s) => pad(s, 3)).join(', ')})`);
      }
      const mapArea = letterIn('map_area', 'map area', raw.mapArea, 'P');
      const sheet = inRange('sheet', 'sheet', raw.sheet, 1, 16);
      return {
        location: { kind: 'nts', quarterUnit, unit, block, series, mapArea, sheet },
        display: `${quarterUnit}-${pad(unit, 3)}-${block}/${pad(series, 3)}-${mapArea}-${pad(sheet, 2)}`,
        compact: `${quarterUnit}${pad(unit, 3)}${block}${pad(series, 3)}${mapArea}${pad(sheet, 2)}`,
      };
    }
    case 'fps': {
      const unit = letterIn('unit', 'unit', raw.unit, 'P');
      // the 16-character form has two characters for the section
      const section = inRange('section', 'section', raw.section, 1, 99);
      const latitude = gridAngle(raw.latitude, 2, 40, 85, 'N', 'latitude');
      const longitude = gridAngle(raw.longitude, 3, 40, 141, 'W', 'longitude');
      return {
        location: { kind: 'fps', unit, section, latitude, longitude },
        display: `${unit}-${pad(section, 2)}-${raw.latitude}-${raw.longitude}`,
        compact: `${unit}${pad(section, 2)}${raw.latitude}${raw.longitude}`,
      };
    }
    case 'geodetic':
      return { location: { kind: 'geodetic', text: raw.text }, display: raw.text, compact: raw.text };
  }
}

/** Two characters for DLS and NTS; one (reported zero-padded) where the location takes 12. */
function checkEvent(raw: string | undefined, width: 1 | 2, label: string): { reported: string; compact: string } {
  if (raw === undefined) fail('event_sequence', 'UWI event sequence is missing: a UWI ends with it, e.g. /00');
  const text = raw.padStart(2, '0');
  if (width === 1 && text[0] !== '0') {
    fail('event_sequence', `UWI event sequence ${raw} does not fit a ${label} UWI (one character after the 12 of the location)`);
  }
  return { reported: text, compact: width === 1 ? text[1]! : text };
}

/** Judges the raw parts of a UWI; throws UwiParseError naming the first part at fault. */
export function checkUwi(raw: RawUwi): Uwi {
  const system = SYSTEMS[raw.systemCode];
  if (!system) fail('survey_system', `UWI survey system ${raw.systemCode} is not one of 1 (DLS), 2 (NTS), 3 (federal permit system) or 4 (geodetic)`);
  if (system.kind !== raw.location.kind) {
    fail('survey_system', `UWI survey system ${raw.systemCode} (${system.label}) does not match a ${KIND_LABELS[raw.location.kind]} legal location`);
  }
  const le = raw.locationException;
  if (!/^[0-9A-Z]{2}$/.test(le)) fail('location_exception', `UWI location exception ${le} is not two letters or digits`);
  const checked = checkLocation(raw.location);
  const width = raw.location.kind === 'fps' || raw.location.kind === 'geodetic' ? 1 : 2;
  const event = checkEvent(raw.eventSequence, width, system.label);
  const prefix = `${raw.systemCode}${le}`;
  return {
    system: system.system,
    systemCode: raw.systemCode as Uwi['systemCode'],
    locationException: le,
    eventSequence: event.reported,
    location: checked.location,
    canonical: `${prefix}/${checked.display}/${event.reported}`,
    compact: `${prefix}${checked.compact}${event.compact}`,
  };
}
