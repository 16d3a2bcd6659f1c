import type { DlsQuarter } from './dls-types.ts';

/*
 * Boustrophedon numbering from the south-east corner. Positions are (row from the south,
 * column from the east): sections 1–6 run west along row 0, 7–12 east along row 1, …; LSDs
 * 1–4 west along row 0 of the section, 5–8 east, 9–12 west, 13–16 east.
 */

export interface GridPosition {
  row: number;
  column: number;
}

function numberAt(row: number, column: number, size: number): number {
  return row * size + (row % 2 === 0 ? column : size - 1 - column) + 1;
}

function positionOf(value: number, size: number): GridPosition {
  const row = Math.floor((value - 1) / size);
  const offset = (value - 1) % size;
  return { row, column: row % 2 === 0 ? offset : size - 1 - offset };
}

export const sectionAt = (row: number, column: number): number => numberAt(row, column, 6);
export const sectionPosition = (section: number): GridPosition => positionOf(section, 6);
export const lsdAt = (row: number, column: number): number => numberAt(row, column, 4);
export const lsdPosition = (lsd: number): GridPosition => positionOf(lsd, 4);

/** Quarter at (row from the south, column from the east) of a 2 × 2 split. */
export const quarterAt = (row: number, column: number): DlsQuarter =>
  `${row === 0 ? 'S' : 'N'}${column === 0 ? 'E' : 'W'}` as DlsQuarter;

export const quarterPosition = (quarter: DlsQuarter): GridPosition => ({
  row: quarter[0] === 'S' ? 0 : 1,
  column: quarter[1] === 'E' ? 0 : 1,
});

/** The quarter section holding an LSD: 1, 2, 7, 8 SE; 3–6 SW; 11–14 NW; 9, 10, 15, 16 NE. */
export function quarterOfLsd(lsd: number): DlsQuarter {
  const { row, column } = lsdPosition(lsd);
  return quarterAt(row >> 1, column >> 1);
}
