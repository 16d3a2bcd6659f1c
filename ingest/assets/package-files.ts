import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The installed directory of an npm package (fonts and icons are read from their packages). */
export function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/** The version an installed package declares: it goes into the release inputs. */
export function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}
