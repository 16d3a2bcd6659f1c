import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { encode } from 'fast-png';
import potpack from 'potpack';
import { SPRITE_RATIOS, spriteFileNames, type SpriteIndex } from '../../engines/assets/sprite-file.ts';
import { SPRITE_SHEETS } from '../../schemas/assets-release.ts';
import { ARROW_ICON, POI_ICONS } from './icon-map.ts';
import { loadMakiShapes, sheetIcons, type IconSvg } from './icon-svg.ts';
import { SHEET_PALETTES } from './sprite-palettes.ts';

export interface SpriteBuildStats {
  sheets: number;
  icons_per_sheet: number;
  /** 1x sheet size (2x is exactly twice). */
  width: number;
  height: number;
}

/** resvg hands out premultiplied RGBA; PNG (and MapLibre's sprite loader) wants straight alpha. */
function unpremultiply(pixels: Uint8Array): Uint8Array {
  for (let i = 0; i < pixels.length; i += 4) {
    const a = pixels[i + 3]!;
    if (a === 0 || a === 255) continue;
    for (let c = 0; c < 3; c++) pixels[i + c] = Math.min(255, Math.round((pixels[i + c]! * 255) / a));
  }
  return pixels;
}

function render(icon: IconSvg, ratio: number): Uint8Array {
  const image = new Resvg(icon.svg, { fitTo: { mode: 'zoom', value: ratio }, font: { loadSystemFonts: false } }).render();
  if (image.width !== icon.width * ratio || image.height !== icon.height * ratio) {
    throw new Error(`icon ${icon.name} rendered at ${image.width}×${image.height}, expected ${icon.width * ratio}×${icon.height * ratio}`);
  }
  return unpremultiply(new Uint8Array(image.pixels));
}

/**
 * Every sheet at 1x and 2x into `dir`: one layout per sheet packed at 1x (potpack, no padding:
 * MapLibre cuts each icon out by its rectangle), the 2x sheet the same layout doubled.
 * Returns the file names written.
 */
export async function buildSprites(dir: string): Promise<{ files: string[]; stats: SpriteBuildStats }> {
  const maki = await loadMakiShapes([...Object.values(POI_ICONS).map((p) => p.maki), ARROW_ICON.maki]);
  const files: string[] = [];
  const stats: SpriteBuildStats = { sheets: 0, icons_per_sheet: 0, width: 0, height: 0 };
  for (const sheet of SPRITE_SHEETS) {
    const icons = sheetIcons(SHEET_PALETTES[sheet], maki);
    const boxes = icons.map((icon) => ({ icon, w: icon.width, h: icon.height, x: 0, y: 0 }));
    const { w, h } = potpack(boxes);
    for (const ratio of SPRITE_RATIOS) {
      const width = w * ratio;
      const sheetPixels = new Uint8Array(width * h * ratio * 4);
      const index: SpriteIndex = {};
      for (const box of boxes) {
        const pixels = render(box.icon, ratio);
        const iw = box.w * ratio;
        for (let row = 0; row < box.h * ratio; row++) {
          const target = ((box.y * ratio + row) * width + box.x * ratio) * 4;
          sheetPixels.set(pixels.subarray(row * iw * 4, (row + 1) * iw * 4), target);
        }
        index[box.icon.name] = { x: box.x * ratio, y: box.y * ratio, width: iw, height: box.h * ratio, pixelRatio: ratio };
      }
      const names = spriteFileNames(sheet, ratio);
      await writeFile(path.join(dir, names.json), `${JSON.stringify(index)}\n`);
      await writeFile(path.join(dir, names.png), encode({ width, height: h * ratio, data: sheetPixels, channels: 4, depth: 8 }));
      files.push(names.json, names.png);
    }
    Object.assign(stats, { sheets: stats.sheets + 1, icons_per_sheet: icons.length, width: w, height: h });
  }
  return { files, stats };
}
