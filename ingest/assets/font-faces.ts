/**
 * The fonts the glyph routes serve, each a face stack of WOFF files from @fontsource packages:
 * a code point is drawn by the first file that has it. @fontsource splits every weight into
 * unicode subsets, so a face lists all subsets of its weight; the Noto Sans faces end with Noto
 * Sans Canadian Aboriginal so syllabics (U+1400–167F, U+18B0–18FF) render in every style. There
 * is no italic syllabics face: the Italic stack falls back to the upright one.
 */
import path from 'node:path';
import { packageDir } from './package-files.ts';

export const NOTO_SANS = '@fontsource/noto-sans';
export const NOTO_SANS_CA = '@fontsource/noto-sans-canadian-aboriginal';

/** Latin first: subsets overlap a little (U+0304, U+0308, ...) and the first file wins. */
const NOTO_SANS_SUBSETS = ['latin', 'latin-ext', 'vietnamese', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'devanagari'];
const NOTO_SANS_CA_SUBSETS = ['canadian-aboriginal', 'latin', 'latin-ext', 'math', 'symbols'];

export interface FontFileRef {
  pkg: string;
  /** Path inside the package. */
  file: string;
}

export interface FaceDefinition {
  name: string;
  files: FontFileRef[];
}

const notoSans = (style: string): FontFileRef[] =>
  NOTO_SANS_SUBSETS.map((subset) => ({ pkg: NOTO_SANS, file: `files/noto-sans-${subset}-${style}.woff` }));
const syllabics = (weight: number): FontFileRef[] =>
  NOTO_SANS_CA_SUBSETS.map((subset) => ({ pkg: NOTO_SANS_CA, file: `files/noto-sans-canadian-aboriginal-${subset}-${weight}-normal.woff` }));

export const FACES: readonly FaceDefinition[] = [
  { name: 'Noto Sans Regular', files: [...notoSans('400-normal'), ...syllabics(400)] },
  { name: 'Noto Sans Medium', files: [...notoSans('500-normal'), ...syllabics(500)] },
  { name: 'Noto Sans Italic', files: [...notoSans('400-italic'), ...syllabics(400)] },
  { name: 'Noto Sans Canadian Aboriginal Regular', files: syllabics(400) },
  { name: 'Noto Sans Canadian Aboriginal Medium', files: syllabics(500) },
];

export const fontFilePath = (ref: FontFileRef): string => path.join(packageDir(ref.pkg), ref.file);
