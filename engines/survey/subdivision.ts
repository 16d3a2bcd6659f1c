import type { TickBox } from './half-seconds.ts';

/**
 * How a cell is cut into its labelled children: `cols` × `rows`, label 0 at the south-east corner,
 * running westward along the southern row. `serpentine` layouts then turn back eastward on the next
 * row (boustrophedon, as NTS map areas and sheets do); the others restart at the east on every row.
 */
export interface Subdivision {
  readonly cols: number;
  readonly rows: number;
  readonly serpentine: boolean;
}

export const childCount = (layout: Subdivision): number => layout.cols * layout.rows;

function childSize(parent: TickBox, layout: Subdivision): { width: number; height: number } {
  const width = (parent.east - parent.west) / layout.cols;
  const height = (parent.north - parent.south) / layout.rows;
  if (!Number.isInteger(width) || !Number.isInteger(height)) {
    throw new Error(`a ${layout.cols}×${layout.rows} subdivision does not fall on whole half-seconds`);
  }
  return { width, height };
}

/** Column counted westward from the parent's east edge, for child `index` on row `row`. */
const columnFromEast = (layout: Subdivision, index: number, row: number): number => {
  const along = index % layout.cols;
  return layout.serpentine && row % 2 === 1 ? layout.cols - 1 - along : along;
};

const indexOf = (layout: Subdivision, fromEast: number, row: number): number =>
  row * layout.cols + (layout.serpentine && row % 2 === 1 ? layout.cols - 1 - fromEast : fromEast);

export function childBox(parent: TickBox, layout: Subdivision, index: number): TickBox {
  const { width, height } = childSize(parent, layout);
  const row = Math.floor(index / layout.cols);
  const east = parent.east - columnFromEast(layout, index, row) * width;
  const south = parent.south + row * height;
  return { west: east - width, south, east, north: south + height };
}

/** The child holding tick point (x, y), which must lie in the parent: south and west edges are inclusive. */
export function childIndexAt(parent: TickBox, layout: Subdivision, x: number, y: number): number {
  const { width, height } = childSize(parent, layout);
  const fromWest = Math.floor((x - parent.west) / width);
  const row = Math.floor((y - parent.south) / height);
  return indexOf(layout, layout.cols - 1 - fromWest, row);
}

/**
 * The children holding at least one point of the closed box `area` under the same edge rule
 * (a child [w, e) × [s, n) qualifies when w ≤ area.east, area.west < e, and likewise north-south),
 * in label order.
 */
export function childIndicesTouching(parent: TickBox, layout: Subdivision, area: TickBox): number[] {
  const { width, height } = childSize(parent, layout);
  const firstCol = Math.max(0, Math.floor((area.west - parent.west) / width));
  const lastCol = Math.min(layout.cols - 1, Math.floor((area.east - parent.west) / width));
  const firstRow = Math.max(0, Math.floor((area.south - parent.south) / height));
  const lastRow = Math.min(layout.rows - 1, Math.floor((area.north - parent.south) / height));
  const indices: number[] = [];
  for (let row = firstRow; row <= lastRow; row++) {
    for (let fromWest = firstCol; fromWest <= lastCol; fromWest++) {
      indices.push(indexOf(layout, layout.cols - 1 - fromWest, row));
    }
  }
  return indices.sort((a, b) => a - b);
}

/** Whether `box` holds a point of the closed box `area`, under the south/west-inclusive rule. */
export const boxTouches = (box: TickBox, area: TickBox): boolean =>
  box.west <= area.east && area.west < box.east && box.south <= area.north && area.south < box.north;
