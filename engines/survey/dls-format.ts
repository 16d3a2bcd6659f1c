import type { DlsRef } from './dls-types.ts';

const pad = (value: number | undefined, width: number): string => String(value).padStart(width, '0');

/**
 * The canonical id of a (valid) reference, zero-padded as in the Alberta Township System:
 * LSD "04-11-082-04W6", quarter "SW-11-082-04W6", section "11-082-04W6", township "082-04W6".
 */
export function dlsId(ref: DlsRef): string {
  const township = `${pad(ref.township, 3)}-${pad(ref.range, 2)}${ref.meridian}`;
  switch (ref.level) {
    case 'township':
      return township;
    case 'section':
      return `${pad(ref.section, 2)}-${township}`;
    case 'quarter':
      return `${ref.quarter}-${pad(ref.section, 2)}-${township}`;
    case 'lsd':
      return `${pad(ref.lsd, 2)}-${pad(ref.section, 2)}-${township}`;
  }
}
