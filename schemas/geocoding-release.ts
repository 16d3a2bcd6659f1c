/** Layout of a geocoding release directory (written by ingest/geocoding through the engines/geocoding index format, read by engines/geocoding). */
export const GEOCODING_KIND = 'geocoding';
/** The compact query index the API loads (format: engines/geocoding/index/file.ts). */
export const GEOCODER_INDEX_FILE = 'geocoder.idx';
/** DuckDB database with the `places`, `addresses` and `sources` tables, for operators and diffs. */
export const GEOCODING_DATABASE_FILE = 'geocoding.duckdb';
export const GEOCODING_SCHEMA_VERSION = 1;
