import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Streams a large query chunk by chunk into the caller (no row objects): onChunk gets the column
 * accessors of each chunk and the row offset where it starts.
 */
export async function streamColumns(
  connection: DuckDBConnection,
  sql: string,
  onChunk: (columns: ((row: number) => unknown)[], rowCount: number, offset: number) => void,
): Promise<number> {
  const result = await connection.stream(sql);
  let offset = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const columns: ((row: number) => unknown)[] = [];
    for (let c = 0; c < chunk.columnCount; c++) {
      const vector = chunk.getColumnVector(c);
      columns.push((row) => vector.getItem(row));
    }
    onChunk(columns, chunk.rowCount, offset);
    offset += chunk.rowCount;
  }
  return offset;
}
