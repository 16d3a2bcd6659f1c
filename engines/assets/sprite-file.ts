import { SPRITE_SHEETS, type SpriteSheetName } from '../../schemas/assets-release.ts';

/** One entry of a sprite sheet's JSON: where the icon is in the PNG (device pixels) and its density. */
export interface SpriteEntry {
  x: number;
  y: number;
  width: number;
  height: number;
  pixelRatio: number;
}

export type SpriteIndex = Record<string, SpriteEntry>;

export const SPRITE_RATIOS = [1, 2] as const;

export type SpriteFileRequest =
  | { ok: true; file: string; type: 'application/json' | 'image/png' }
  | { ok: false; reason: 'extension' | 'unknown' };

/** `<sheet>[@2x].json|png` → the file to serve; another extension is malformed, another name unknown. */
export function parseSpriteFile(file: string): SpriteFileRequest {
  const ext = /\.(json|png)$/.exec(file)?.[1];
  if (!ext) return { ok: false, reason: 'extension' };
  const stem = file.slice(0, -(ext.length + 1));
  const sheet = stem.endsWith('@2x') ? stem.slice(0, -3) : stem;
  if (!(SPRITE_SHEETS as readonly string[]).includes(sheet)) return { ok: false, reason: 'unknown' };
  return { ok: true, file, type: ext === 'json' ? 'application/json' : 'image/png' };
}

/** The file names of one sheet at one pixel ratio. */
export function spriteFileNames(sheet: SpriteSheetName, ratio: number): { json: string; png: string } {
  const stem = ratio === 1 ? sheet : `${sheet}@${ratio}x`;
  return { json: `${stem}.json`, png: `${stem}.png` };
}
