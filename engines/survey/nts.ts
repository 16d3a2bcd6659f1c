/*
 * The National Topographic System of Canada as exact geometry, with the BC grid below its
 * 1:50,000 sheets. Canonical ids: series "093", map area "093F", sheet "093F10", block
 * "L/093-F-10", unit "001-L/093-F-10", quarter unit "B-001-L/093-F-10" (nts-format.ts).
 */
export { NTS_CELL_LEVELS, isNtsLevel, type NtsBounds, type NtsCell, type NtsLevel, type NtsRef } from './nts-types.ts';
export { NtsParseError, type NtsPart } from './nts-error.ts';
export { parseNts } from './nts-parse.ts';
export { ntsId } from './nts-format.ts';
export { ntsBounds, ntsBoundsHalfSeconds, ntsCell } from './nts-grid.ts';
export { ntsCellAt } from './nts-locate.ts';
export { ntsCellsInBbox, ntsChildren, ntsNationalCells } from './nts-enumerate.ts';
export { ntsFeature, type NtsFeature, type NtsFeatureProperties } from './nts-feature.ts';
export { CANADA_NTS_SERIES, NTS_CANADA_BBOX, type NtsExtent } from './nts-extent.ts';
export { ALL_NTS_SERIES, isNtsSeries, seriesZone, type NtsZone } from './nts-series.ts';
export { HALF_SECONDS_PER_DEGREE, type TickBox } from './half-seconds.ts';
