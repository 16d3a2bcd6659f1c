/**
 * Each icon as an SVG document in 1x pixels (resvg renders it at 1x and 2x). POI badges are
 * 19 × 19 like protomaps' sheets, localities 10 × 10, shields 16 px high and wide enough for
 * their characters at the shield layer's 8 px text and 0.8 icon size.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ARROW_ICON, LOCALITY_ICONS, POI_ICONS, SHIELD_MAX_CHARS, SHIELD_NETWORKS, shieldIconName } from './icon-map.ts';
import { packageDir } from './package-files.ts';
import type { BadgeColours, SheetPalette } from './sprite-palettes.ts';

export const MAKI = '@mapbox/maki';
export const POI_SIZE = 19;
export const LOCALITY_SIZE = 10;
export const SHIELD_HEIGHT = 16;
/** Maki icons are drawn on a 15 × 15 grid; in a badge they get 13 px. */
const MAKI_GRID = 15;
const MAKI_PX = 13;

export interface IconSvg {
  name: string;
  width: number;
  height: number;
  svg: string;
}

export const shieldWidth = (chars: number): number => 6 * chars + 8;

export const makiFile = (icon: string): string => path.join(packageDir(MAKI), 'icons', `${icon}.svg`);

/** The shapes of a maki icon (inside its root <svg>), read once per build. */
export async function loadMakiShapes(icons: readonly string[]): Promise<Map<string, string>> {
  const shapes = new Map<string, string>();
  for (const icon of new Set(icons)) {
    const text = await readFile(makiFile(icon), 'utf8');
    const inner = /<svg\b[^>]*>([\s\S]*)<\/svg>/.exec(text)?.[1];
    if (!inner) throw new Error(`maki icon ${icon} has no <svg> root`);
    shapes.set(icon, inner);
  }
  return shapes;
}

const doc = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;

function makiGroup(shapes: string, x: number, y: number, size: number, fill: string, transform = ''): string {
  return `<g transform="translate(${x} ${y}) scale(${size / MAKI_GRID})${transform}" fill="${fill}">${shapes}</g>`;
}

function badge(shapes: string, colours: BadgeColours): string {
  const inset = (POI_SIZE - MAKI_PX) / 2;
  return doc(POI_SIZE, POI_SIZE,
    `<rect x="0.5" y="0.5" width="${POI_SIZE - 1}" height="${POI_SIZE - 1}" rx="4" fill="${colours.fill}" stroke="${colours.stroke}"/>` +
    makiGroup(shapes, inset, inset, MAKI_PX, colours.glyph));
}

function shield(network: string, chars: number, palette: SheetPalette): string {
  const width = shieldWidth(chars);
  const box = (c: BadgeColours) => `<rect x="0.5" y="0.5" width="${width - 1}" height="${SHIELD_HEIGHT - 1}" rx="3" fill="${c.fill}" stroke="${c.stroke}"/>`;
  if (network === 'US:I') {
    const c = palette.interstate;
    return doc(width, SHIELD_HEIGHT, `${box(c)}<rect x="1" y="1" width="${width - 2}" height="4" rx="2.5" fill="${c.glyph}"/>`);
  }
  return doc(width, SHIELD_HEIGHT, box(network === 'NL:S-road' ? palette.nlRoad : palette.shield));
}

/** Every icon of one sheet, by name. */
export function sheetIcons(palette: SheetPalette, maki: ReadonlyMap<string, string>): IconSvg[] {
  const shapes = (icon: string) => {
    const found = maki.get(icon);
    if (found === undefined) throw new Error(`maki icon ${icon} was not loaded`);
    return found;
  };
  const icons: IconSvg[] = Object.entries(POI_ICONS).map(([name, { maki: icon, category }]) => ({
    name, width: POI_SIZE, height: POI_SIZE, svg: badge(shapes(icon), palette.poi[category]),
  }));
  icons.push({
    name: ARROW_ICON.name, width: POI_SIZE, height: POI_SIZE,
    svg: doc(POI_SIZE, POI_SIZE, makiGroup(shapes(ARROW_ICON.maki), 2, 2, 15, palette.arrow, ' rotate(-90 7.5 7.5)')),
  });
  const [capital, townspot] = LOCALITY_ICONS;
  const { fill, stroke } = palette.town;
  const r = LOCALITY_SIZE / 2;
  icons.push(
    { name: townspot, width: LOCALITY_SIZE, height: LOCALITY_SIZE, svg: doc(LOCALITY_SIZE, LOCALITY_SIZE, `<circle cx="${r}" cy="${r}" r="${r - 1.5}" fill="${fill}" stroke="${stroke}" stroke-width="2"/>`) },
    {
      name: capital, width: LOCALITY_SIZE, height: LOCALITY_SIZE,
      svg: doc(LOCALITY_SIZE, LOCALITY_SIZE, `<circle cx="${r}" cy="${r}" r="${r - 1}" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/><circle cx="${r}" cy="${r}" r="2" fill="${stroke}"/>`),
    },
  );
  for (const network of SHIELD_NETWORKS) {
    for (let chars = 1; chars <= SHIELD_MAX_CHARS; chars++) {
      icons.push({ name: shieldIconName(network, chars), width: shieldWidth(chars), height: SHIELD_HEIGHT, svg: shield(network, chars, palette) });
    }
  }
  return icons.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
