/**
 * Own travel matrices (volume 3 travel source 3): model.durationDistanceMatrices with the src and
 * dst tag lists, their shapes, and how visits and vehicles are placed by tags. A visit's tags must
 * match exactly one src tag (its row) and one dst tag (its column); a vehicle's startTags one src
 * tag and its endTags one dst tag (none: open start or end). With several matrices, each has a
 * distinct vehicleStartTag and each vehicle's startTags name exactly one of them.
 */
import type { OwnMatrix } from '../request-model.ts';
import { fieldPath, indexPath } from './fields.ts';
import { parseDouble, parseDuration } from './values.ts';
import type { Reader, Message } from './reader.ts';

export interface MatrixTags {
  srcTags: string[];
  dstTags: string[];
  /** vehicleStartTag per matrix (null: the single matrix for every vehicle). */
  vehicleStartTags: (string | null)[];
  /** Per matrix: path of the first row that left meters out, or null. */
  metersMissing: (string | null)[];
  /** The tag lists themselves are refused: placing by tags is not checked further (no cascade of issues). */
  broken: boolean;
}

export interface ReadMatrices {
  tags: MatrixTags;
  matrices: OwnMatrix[];
}

/** Null when the model has no matrices (and no tag lists). `maxCells`: per matrix (the plan's locations squared). */
export function readMatrices(r: Reader, model: Message, path: string, maxCells: number): ReadMatrices | null {
  const before = r.issues.count;
  const srcTags = r.strings(model, 'durationDistanceMatrixSrcTags', path);
  const dstTags = r.strings(model, 'durationDistanceMatrixDstTags', path);
  const items = r.messages(model, 'durationDistanceMatrices', path);
  const listPath = fieldPath(path, 'durationDistanceMatrices');
  const tags: MatrixTags = { srcTags, dstTags, vehicleStartTags: [], metersMissing: [], broken: false };
  if (items.length === 0) {
    if (srcTags.length === 0 && dstTags.length === 0) return null;
    r.issue('MISSING_REQUIRED_FIELD', listPath, 'durationDistanceMatrices is required when durationDistanceMatrixSrcTags or DstTags are given');
    return { tags: { ...tags, broken: true }, matrices: [] };
  }
  if (srcTags.length === 0) r.issue('MISSING_REQUIRED_FIELD', fieldPath(path, 'durationDistanceMatrixSrcTags'), 'durationDistanceMatrixSrcTags is required with durationDistanceMatrices');
  if (dstTags.length === 0) r.issue('MISSING_REQUIRED_FIELD', fieldPath(path, 'durationDistanceMatrixDstTags'), 'durationDistanceMatrixDstTags is required with durationDistanceMatrices');
  if (r.issues.count > before) return { tags: { ...tags, broken: true }, matrices: [] };

  const matrices: OwnMatrix[] = [];
  for (const { item, path: at } of items) {
    const tag = r.string(item, 'vehicleStartTag', at) || null;
    if (items.length > 1 && tag === null) {
      r.issue('MISSING_REQUIRED_FIELD', fieldPath(at, 'vehicleStartTag'), 'with more than one matrix, each needs a vehicleStartTag');
    } else if (tag !== null && tags.vehicleStartTags.includes(tag)) {
      r.issue('DUPLICATE_VALUE', fieldPath(at, 'vehicleStartTag'), `vehicleStartTag "${tag}" names more than one matrix`);
    }
    tags.vehicleStartTags.push(tag);
    const read = readCells(r, item, at, srcTags.length, dstTags.length, maxCells);
    tags.metersMissing.push(read.metersMissing);
    matrices.push({ vehicleStartTag: tag, durations: read.durations, meters: read.meters });
  }
  return { tags, matrices };
}

function readCells(r: Reader, matrix: Message, path: string, rowCount: number, columnCount: number, maxCells: number) {
  const durations: number[][] = [];
  const meters: number[][] = [];
  let metersMissing: string | null = null;
  const rows = r.messages(matrix, 'rows', path);
  const rowsPath = fieldPath(path, 'rows');
  if (rows.length !== rowCount) {
    r.issue('MATRIX_SHAPE_MISMATCH', rowsPath, `rows has ${rows.length} rows; durationDistanceMatrixSrcTags has ${rowCount} tags`);
  }
  const cells = rows.reduce((sum, row) => sum + (Array.isArray(row.item.durations) ? row.item.durations.length : 0), 0);
  if (cells > maxCells) {
    r.issue('OUT_OF_RANGE', rowsPath, `the matrix has ${cells} cells; this plan allows at most ${maxCells} (its location limit squared)`);
    return { durations, meters, metersMissing };
  }
  for (const { item: row, path: at } of rows) {
    const d = r.list(row, 'durations', at);
    const m = r.list(row, 'meters', at);
    if (d.length !== columnCount) {
      r.issue('MATRIX_SHAPE_MISMATCH', fieldPath(at, 'durations'), `durations has ${d.length} values; durationDistanceMatrixDstTags has ${columnCount} tags`);
    }
    if (m.length === 0) metersMissing ??= fieldPath(at, 'meters');
    else if (m.length !== d.length) {
      r.issue('MATRIX_SHAPE_MISMATCH', fieldPath(at, 'meters'), `meters has ${m.length} values, durations ${d.length} (leave meters out only when nothing refers to distance)`);
    }
    durations.push(cellValues(r, d, fieldPath(at, 'durations'), parseDuration));
    meters.push(m.length === 0 ? d.map(() => 0) : cellValues(r, m, fieldPath(at, 'meters'), parseDouble));
  }
  return { durations, meters, metersMissing };
}

function cellValues(r: Reader, values: unknown[], path: string, parse: typeof parseDouble): number[] {
  return values.map((v, k) => {
    const parsed = parse(v);
    if (!parsed.ok) r.issue(parsed.issue, indexPath(path, k), `a matrix cell ${parsed.message}`);
    else if (parsed.value < 0) r.issue('INVALID_VALUE', indexPath(path, k), 'a matrix cell must not be negative');
    return parsed.ok ? parsed.value : 0;
  });
}

/** The one tag of `tags` found in `list`: its index, or undefined after recording why not. */
function matchOne(r: Reader, tags: string[], list: string[], listName: string, path: string, required: boolean): number | null | undefined {
  const found = tags.map((t) => list.indexOf(t)).filter((i) => i >= 0);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    r.issue('INVALID_VALUE', path, `tags match ${found.length} entries of ${listName}; exactly one must match`);
    return undefined;
  }
  if (!required && tags.length === 0) return null;
  if (tags.length === 0) r.issue('MISSING_REQUIRED_FIELD', path, `with own matrices a stop is placed by tags; none given`);
  else r.issue('UNKNOWN_TAG', path, `none of ${JSON.stringify(tags)} is in ${listName}`);
  return undefined;
}

/** A visit's row and column, or undefined after recording the issue. */
export function visitCell(r: Reader, m: MatrixTags, tags: string[], path: string): { src: number; dst: number } | undefined {
  if (m.broken) return undefined;
  const src = matchOne(r, tags, m.srcTags, 'durationDistanceMatrixSrcTags', path, true);
  const dst = src == null ? undefined : matchOne(r, tags, m.dstTags, 'durationDistanceMatrixDstTags', path, true);
  return src == null || dst == null ? undefined : { src, dst };
}

/** A vehicle's start row: null for an open start (no startTags other than matrix tags). */
export function vehicleStartRow(r: Reader, m: MatrixTags, startTags: string[], path: string): number | null | undefined {
  if (m.broken) return undefined;
  const placeTags = startTags.filter((t) => m.srcTags.includes(t) || !m.vehicleStartTags.includes(t));
  return matchOne(r, placeTags, m.srcTags, 'durationDistanceMatrixSrcTags', path, false);
}

/** A vehicle's end column: null for an open end (no endTags). */
export function vehicleEndColumn(r: Reader, m: MatrixTags, endTags: string[], path: string): number | null | undefined {
  return m.broken ? undefined : matchOne(r, endTags, m.dstTags, 'durationDistanceMatrixDstTags', path, false);
}

/** The matrix a vehicle uses, by its startTags. */
export function vehicleMatrix(r: Reader, m: MatrixTags, startTags: string[], path: string): number | undefined {
  if (m.broken) return undefined;
  if (m.vehicleStartTags.length === 1 && m.vehicleStartTags[0] === null) return 0;
  const named = new Set(m.vehicleStartTags.filter((tag): tag is string => tag !== null && startTags.includes(tag)));
  if (named.size === 1) return m.vehicleStartTags.indexOf([...named][0]!);
  const all = [...new Set(m.vehicleStartTags.filter((t) => t !== null))].map((t) => `"${t}"`).join(', ');
  r.issue(named.size === 0 ? 'UNKNOWN_TAG' : 'INVALID_VALUE', path, `startTags must name exactly one matrix vehicleStartTag (${all}); they name ${named.size}`);
  return undefined;
}
