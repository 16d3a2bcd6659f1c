import type { NtsRef } from './nts-types.ts';

const pad = (value: number | undefined, width: number): string => String(value).padStart(width, '0');

/**
 * The canonical string of a (valid) reference. NTS levels follow map usage, without separators:
 * series "093", map area "093F", sheet "093F10". BC grid levels follow the BC form, of which the
 * shorter ones drop leading parts: block "L/093-F-10", unit "001-L/093-F-10", quarter unit
 * "B-001-L/093-F-10".
 */
export function ntsId(ref: NtsRef): string {
  const series = pad(ref.series, 3);
  switch (ref.level) {
    case 'series':
      return series;
    case 'map_area':
      return `${series}${ref.mapArea}`;
    case 'sheet':
      return `${series}${ref.mapArea}${pad(ref.sheet, 2)}`;
  }
  const sheet = `${series}-${ref.mapArea}-${pad(ref.sheet, 2)}`;
  switch (ref.level) {
    case 'block':
      return `${ref.block}/${sheet}`;
    case 'unit':
      return `${pad(ref.unit, 3)}-${ref.block}/${sheet}`;
    case 'quarter_unit':
      return `${ref.quarterUnit}-${pad(ref.unit, 3)}-${ref.block}/${sheet}`;
  }
}
