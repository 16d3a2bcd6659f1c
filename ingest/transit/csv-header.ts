import { open } from 'node:fs/promises';

const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Column names of a GTFS file's header line (BOM and surrounding spaces removed, quotes
 * undone). An empty file has no columns. Only the header is read here; rows go to DuckDB.
 */
export async function readCsvHeader(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(MAX_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_HEADER_BYTES, 0);
    let text = buffer.subarray(0, bytesRead).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const end = text.search(/\r?\n/);
    const line = end === -1 ? text : text.slice(0, end);
    if (line.trim() === '') return [];
    return splitCsvLine(line).map((name) => name.trim());
  } finally {
    await handle.close();
  }
}

function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}
