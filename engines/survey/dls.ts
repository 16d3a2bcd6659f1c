/*
 * The Dominion Land Survey (third system) as modelled geometry (dls-model.ts): townships,
 * sections, quarter sections and legal subdivisions west (and east) of the principal meridian.
 * Canonical ids: LSD "04-11-082-04W6", quarter "SW-11-082-04W6", section "11-082-04W6",
 * township "082-04W6" (dls-format.ts).
 */
export {
  DLS_CELL_LEVELS,
  DLS_MERIDIANS,
  DLS_QUARTERS,
  isDlsLevel,
  type DlsBounds,
  type DlsCell,
  type DlsLevel,
  type DlsMeridian,
  type DlsProvince,
  type DlsQuarter,
  type DlsRef,
} from './dls-types.ts';
export { DlsParseError, type DlsPart } from './dls-error.ts';
export { looksLikeDls } from './dls-detect.ts';
export { parseDls } from './dls-parse.ts';
export { dlsId } from './dls-format.ts';
export { dlsCell } from './dls-grid.ts';
export { dlsCellAt } from './dls-locate.ts';
export { dlsCellsInBbox } from './dls-enumerate.ts';
export { dlsFeature, type DlsFeature, type DlsFeatureProperties } from './dls-feature.ts';
export { DLS_EXTENT, DLS_MODEL } from './dls-model.ts';
