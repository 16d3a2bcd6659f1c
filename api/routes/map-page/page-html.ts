import { STYLE_MODES, PALETTES } from '../../../engines/styles/style-names.ts';
import { THEME_PRESETS } from '../../../engines/styles/theme-presets.ts';

const STYLE_OPTIONS = '<!--style-options-->';
const THEME_PRESET_OPTIONS = '<!--theme-presets-->';

/**
 * The page's index.html with its pickers filled from the styles engine, so the page offers
 * exactly the styles and presets the API answers (the twelve palettes × light/dark).
 */
export function fillPageHtml(template: string): string {
  if (!template.includes(STYLE_OPTIONS) || !template.includes(THEME_PRESET_OPTIONS)) {
    throw new Error(`web/map/index.html lacks the ${STYLE_OPTIONS} or ${THEME_PRESET_OPTIONS} placeholder`);
  }
  const styles = PALETTES.flatMap((palette) => STYLE_MODES.map((mode) => `<option value="${palette}-${mode}">${palette} · ${mode}</option>`));
  const presets = [...THEME_PRESETS.keys()].map((code) => `<option value="${code}"></option>`);
  return template.replace(STYLE_OPTIONS, styles.join('')).replace(THEME_PRESET_OPTIONS, presets.join(''));
}
