import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { PublishSpec } from '../../releases/publish.ts';
import {
  ASSETS_INDEX_FILE, ASSETS_KIND, ASSETS_SCHEMA_VERSION, GLYPH_PACK_FILE, LICENCE_DIR, SPRITE_DIR, type AssetsIndex,
} from '../../schemas/assets-release.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { buildGlyphPack } from './build-glyphs.ts';
import { buildSprites } from './build-sprites.ts';
import { FACES, fontFilePath, NOTO_SANS, NOTO_SANS_CA } from './font-faces.ts';
import { ARROW_ICON, POI_ICONS } from './icon-map.ts';
import { makiFile, MAKI } from './icon-svg.ts';
import { packageDir, packageVersion } from './package-files.ts';

/** Bump when the SDF, the faces, the icon mapping or the palettes change: the content hash covers it. */
export const ASSETS_BUILDER_VERSION = 'assets-1';

export interface AssetsReleaseOptions {
  onProgress?: (fraction: number, message: string) => void;
}

interface SourcePackage {
  pkg: string;
  files: string[];
  licenceFile: string;
  licence: string;
  attribution: string;
}

function sourcePackages(): SourcePackage[] {
  const fontFiles = (pkg: string) => [...new Set(FACES.flatMap((f) => f.files).filter((r) => r.pkg === pkg).map(fontFilePath))];
  const makiIcons = [...new Set([...Object.values(POI_ICONS).map((p) => p.maki), ARROW_ICON.maki])].sort().map(makiFile);
  return [
    { pkg: NOTO_SANS, files: fontFiles(NOTO_SANS), licenceFile: 'LICENSE', licence: 'OFL-1.1', attribution: 'Noto Sans © The Noto Project Authors' },
    { pkg: NOTO_SANS_CA, files: fontFiles(NOTO_SANS_CA), licenceFile: 'LICENSE', licence: 'OFL-1.1', attribution: 'Noto Sans Canadian Aboriginal © The Noto Project Authors' },
    { pkg: MAKI, files: makiIcons, licenceFile: 'LICENSE.txt', licence: 'CC0-1.0', attribution: 'Maki icons by Mapbox (CC0)' },
  ];
}

/** One input per npm package: sha256 over the (name, sha256) of every file of it the build reads. */
async function packageInput(source: SourcePackage): Promise<ManifestInput> {
  const hash = createHash('sha256');
  const root = packageDir(source.pkg);
  for (const file of [...source.files, path.join(root, source.licenceFile)]) {
    hash.update(`${path.relative(root, file)}\0${createHash('sha256').update(await readFile(file)).digest('hex')}\n`);
  }
  return {
    name: source.pkg,
    source: `npm:${source.pkg}@${packageVersion(source.pkg)}`,
    sha256: hash.digest('hex'),
    licence: source.licence,
    attribution: source.attribution,
  };
}

const licenceName = (source: SourcePackage) => `${source.pkg.replace(/^@/, '').replace(/\//g, '-')}-${source.licence}.txt`;

/** Glyphs and sprites from the installed font and icon packages → a PublishSpec (no options: the packages are the input). */
export async function prepareAssetsRelease(options: AssetsReleaseOptions = {}): Promise<PublishSpec> {
  const onProgress = options.onProgress ?? (() => {});
  const sources = sourcePackages();
  const inputs = await Promise.all(sources.map(packageInput));
  return {
    kind: ASSETS_KIND,
    builderVersion: ASSETS_BUILDER_VERSION,
    schemaVersion: ASSETS_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      const started = performance.now();
      onProgress(0.05, 'cutting glyph SDFs');
      const glyphs = await buildGlyphPack(FACES, path.join(stagingDir, GLYPH_PACK_FILE));
      const glyphsMs = Math.round(performance.now() - started);
      onProgress(0.85, 'drawing sprite sheets');
      await mkdir(path.join(stagingDir, SPRITE_DIR));
      const sprites = await buildSprites(path.join(stagingDir, SPRITE_DIR));
      await mkdir(path.join(stagingDir, LICENCE_DIR));
      for (const source of sources) {
        await copyFile(path.join(packageDir(source.pkg), source.licenceFile), path.join(stagingDir, LICENCE_DIR, licenceName(source)));
      }
      const index: AssetsIndex = { faces: glyphs.faces, sprite_files: sprites.files, licences: sources.map(licenceName) };
      await writeFile(path.join(stagingDir, ASSETS_INDEX_FILE), `${JSON.stringify(index)}\n`);
      const buildMs = Math.round(performance.now() - started);
      onProgress(1, `built in ${buildMs} ms`);
      return {
        stats: {
          fonts: glyphs.faces.map((f) => f.name),
          glyphs: glyphs.stats,
          sprites: sprites.stats,
          glyphs_ms: glyphsMs,
          sprites_ms: buildMs - glyphsMs,
          build_ms: buildMs,
        },
      };
    },
  };
}
