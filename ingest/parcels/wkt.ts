/** WKT POLYGON and MULTIPOLYGON (2D, lng lat order as EPSG:4326 exports write it) → GeoJSON. */

type Ring = [number, number][];

class WktReader {
  private at = 0;
  constructor(private readonly text: string) {}

  word(): string {
    this.space();
    const m = /^[A-Za-z]+/.exec(this.text.slice(this.at));
    if (!m) throw new Error(`expected POLYGON or MULTIPOLYGON at character ${this.at + 1}`);
    this.at += m[0].length;
    return m[0].toUpperCase();
  }

  take(char: string): void {
    this.space();
    if (this.text[this.at] !== char) throw new Error(`expected "${char}" at character ${this.at + 1}`);
    this.at++;
  }

  /** Whether the next character is `char` (consumed if so). */
  maybe(char: string): boolean {
    this.space();
    if (this.text[this.at] !== char) return false;
    this.at++;
    return true;
  }

  number(): number {
    this.space();
    const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.text.slice(this.at));
    if (!m) throw new Error(`expected a number at character ${this.at + 1}`);
    this.at += m[0].length;
    return Number(m[0]);
  }

  end(): void {
    this.space();
    if (this.at !== this.text.length) throw new Error(`unexpected text at character ${this.at + 1}`);
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }
}

/** Every run of a list in parentheses: "(a, b, c)". */
function list<T>(reader: WktReader, item: () => T): T[] {
  reader.take('(');
  const items = [item()];
  while (reader.maybe(',')) items.push(item());
  reader.take(')');
  return items;
}

function ring(reader: WktReader): Ring {
  const points = list(reader, () => [reader.number(), reader.number()] as [number, number]);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (points.length < 4) throw new Error('a polygon ring needs at least four points');
  if (first[0] !== last[0] || first[1] !== last[1]) throw new Error('a polygon ring must end where it starts');
  return points;
}

const polygon = (reader: WktReader): Ring[] => list(reader, () => ring(reader));

export function parseWktPolygon(text: string): GeoJSON.Polygon | GeoJSON.MultiPolygon {
  const reader = new WktReader(text);
  const kind = reader.word();
  let geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon;
  if (kind === 'POLYGON') geometry = { type: 'Polygon', coordinates: polygon(reader) };
  else if (kind === 'MULTIPOLYGON') geometry = { type: 'MultiPolygon', coordinates: list(reader, () => polygon(reader)) };
  else throw new Error(`${kind} is not a POLYGON or MULTIPOLYGON`);
  reader.end();
  return geometry;
}
