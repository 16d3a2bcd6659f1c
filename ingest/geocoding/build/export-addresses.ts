import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../../../lib/duckdb-rows.ts';
import type { CorpusAddresses } from '../../../engines/geocoding/corpus.ts';

/**
 * addr_final → the corpus's address columns, ordered by street (index `streetBase + idx` into
 * the corpus places), civic number, then unit; streamed chunk by chunk.
 */
export async function exportAddresses(connection: DuckDBConnection, streetBase: number): Promise<CorpusAddresses> {
  const count = Number((await queryRows<{ n: bigint }>(connection, 'SELECT count(*) AS n FROM addr_final'))[0]!.n);
  const out: CorpusAddresses = {
    count,
    lng: new Float64Array(count),
    lat: new Float64Array(count),
    street: new Uint32Array(count),
    housenumber: new Array<string>(count),
    unit: new Array<string>(count),
    postcode: new Array<string>(count),
    source: new Uint8Array(count),
    sourceId: new Array<string>(count),
  };
  const result = await connection.stream(`
    SELECT s.idx, a.lng, a.lat, a.number_display, coalesce(a.unit_display, ''), coalesce(a.postcode, ''), a.src, a.source_id
    FROM addr_final a JOIN street_idx s USING (street_key, loc, region_code)
    ORDER BY s.idx, a.number_value, a.number_key, a.unit_key NULLS FIRST`);
  let row = 0;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const [idx, lng, lat, number, unit, postcode, src, sourceId] = chunk.getColumns() as unknown as [
      number[], number[], number[], string[], string[], string[], number[], string[],
    ];
    for (let i = 0; i < chunk.rowCount; i++, row++) {
      out.street[row] = streetBase + idx[i]!;
      out.lng[row] = lng[i]!;
      out.lat[row] = lat[i]!;
      out.housenumber[row] = number[i]!;
      out.unit[row] = unit[i]!;
      out.postcode[row] = postcode[i]!;
      out.source[row] = src[i]!;
      out.sourceId[row] = sourceId[i]!;
    }
  }
  if (row !== count) throw new Error(`address export wrote ${row} of ${count} rows`);
  return out;
}
