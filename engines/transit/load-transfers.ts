import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../../lib/duckdb-rows.ts';
import type { TransferColumns } from './data.ts';
import { streamColumns } from './duckdb-read.ts';
import { STOP_INDEX } from './load-schedule.ts';

export function emptyTransfers(): TransferColumns {
  return { from: new Int32Array(0), to: new Int32Array(0), type: new Int8Array(0), minSeconds: new Int32Array(0) };
}

/**
 * The release's `transfers` table as stop indexes (as in loadStops), sorted by from stop then to
 * stop. A release of schema version 1 has no such table: it has no transfers.
 */
export async function loadTransfers(connection: DuckDBConnection): Promise<TransferColumns> {
  const [{ present }] = (await queryRows<{ present: boolean }>(connection, `
    SELECT count(*) > 0 AS present FROM duckdb_tables()
    WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = 'transfers'`)) as [{ present: boolean }];
  if (!present) return emptyTransfers();
  const [{ n }] = (await queryRows<{ n: number }>(connection, `SELECT count(*)::INTEGER AS n FROM transfers`)) as [{ n: number }];
  const transfers: TransferColumns = { from: new Int32Array(n), to: new Int32Array(n), type: new Int8Array(n), minSeconds: new Int32Array(n) };
  // a rule whose stop is missing from stops falls out of the joins (the builder never writes one)
  const rows = await streamColumns(connection, `
    SELECT f.idx AS from_stop, t.idx AS to_stop, x.transfer_type, coalesce(x.min_transfer_secs, -1) AS min_secs
    FROM transfers x
    JOIN ${STOP_INDEX} f ON f.id = x.from_stop_id
    JOIN ${STOP_INDEX} t ON t.id = x.to_stop_id
    ORDER BY f.idx, t.idx`,
  (cols, rowCount, offset) => {
    const [from, to, type, minSecs] = cols as ((row: number) => number)[] as [
      (r: number) => number, (r: number) => number, (r: number) => number, (r: number) => number,
    ];
    for (let row = 0; row < rowCount; row++) {
      transfers.from[offset + row] = from(row);
      transfers.to[offset + row] = to(row);
      transfers.type[offset + row] = type(row);
      transfers.minSeconds[offset + row] = minSecs(row);
    }
  });
  if (rows < n) {
    return { from: transfers.from.slice(0, rows), to: transfers.to.slice(0, rows), type: transfers.type.slice(0, rows), minSeconds: transfers.minSeconds.slice(0, rows) };
  }
  return transfers;
}
