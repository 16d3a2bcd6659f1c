import { BLOCK_LAYOUT, QUARTER_UNIT_LAYOUT, UNIT_LAYOUT } from './bc-grid.ts';
import type { NtsZone } from './nts-series.ts';
import type { NtsLevel, NtsRef } from './nts-types.ts';
import { childCount, type Subdivision } from './subdivision.ts';

/*
 * Map areas (1:250,000) A–P are 2° × 1° south of 68°N; north of it a series has eight, A–H, two
 * abreast: 4° × 1° to 80°N and 8° × 1° beyond (the series being twice as wide). Sheets (1:50,000)
 * 1–16 quarter a map area both ways everywhere: 30′ × 15′, 1° × 15′, 2° × 15′. Both are serpentine
 * from the south-east corner. The BC grid (bc-grid.ts) is defined on 30′ × 15′ sheets only.
 */
const SOUTHERN_MAP_AREAS: Subdivision = { cols: 4, rows: 4, serpentine: true };
const NORTHERN_MAP_AREAS: Subdivision = { cols: 2, rows: 4, serpentine: true };
const SHEETS: Subdivision = { cols: 4, rows: 4, serpentine: true };

/** One level below the series: where its label sits in a reference and how the parent is cut. */
export interface NtsStep {
  readonly level: Exclude<NtsLevel, 'series'>;
  readonly key: 'mapArea' | 'sheet' | 'block' | 'unit' | 'quarterUnit';
  readonly labels: 'letters' | 'numbers';
  /** How error messages name the part. */
  readonly noun: string;
  /** null where the level is not defined. */
  layout(zone: NtsZone): Subdivision | null;
}

const southernOnly = (layout: Subdivision) => (zone: NtsZone) => (zone === 'southern' ? layout : null);

/** The levels below the series, in order (NTS_STEPS[i] is level depth i + 1). */
export const NTS_STEPS: readonly NtsStep[] = [
  {
    level: 'map_area',
    key: 'mapArea',
    labels: 'letters',
    noun: 'map area letter',
    layout: (zone) => (zone === 'southern' ? SOUTHERN_MAP_AREAS : NORTHERN_MAP_AREAS),
  },
  { level: 'sheet', key: 'sheet', labels: 'numbers', noun: 'sheet', layout: () => SHEETS },
  { level: 'block', key: 'block', labels: 'letters', noun: 'block letter', layout: southernOnly(BLOCK_LAYOUT) },
  { level: 'unit', key: 'unit', labels: 'numbers', noun: 'unit', layout: southernOnly(UNIT_LAYOUT) },
  {
    level: 'quarter_unit',
    key: 'quarterUnit',
    labels: 'letters',
    noun: 'quarter unit letter',
    layout: southernOnly(QUARTER_UNIT_LAYOUT),
  },
];

export const stepLabel = (step: NtsStep, index: number): string | number =>
  step.labels === 'letters' ? String.fromCharCode(65 + index) : index + 1;

/** The 0-based index of a label, or null when it is not one of the layout's labels. */
export function stepIndex(step: NtsStep, layout: Subdivision, label: unknown): number | null {
  let index: number;
  if (step.labels === 'letters') {
    if (typeof label !== 'string' || !/^[A-Za-z]$/.test(label)) return null;
    index = label.toUpperCase().charCodeAt(0) - 65;
  } else {
    if (typeof label !== 'number' || !Number.isInteger(label)) return null;
    index = label - 1;
  }
  return index >= 0 && index < childCount(layout) ? index : null;
}

export function labelRange(step: NtsStep, layout: Subdivision): string {
  const last = childCount(layout) - 1;
  return `${stepLabel(step, 0)}–${stepLabel(step, last)}`;
}

/** `ref` extended one level down with child `index` of `step`. */
export const withChild = (ref: NtsRef, step: NtsStep, index: number): NtsRef => ({
  ...ref,
  level: step.level,
  [step.key]: stepLabel(step, index),
});
