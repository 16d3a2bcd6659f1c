/**
 * Layout of `parcels.duckdb`, the one artifact of a parcels release besides manifest.json: BC
 * land parcels with a PID. ingest/parcels writes it; engines/parcels/release.ts reads it READ_ONLY
 * into memory at open time.
 */
/** The release kind (and job kind) of land parcels. */
export const PARCELS_KIND = 'parcels';
export const PARCELS_SCHEMA_VERSION = 1;
export const PARCELS_DATABASE_FILE = 'parcels.duckdb';
/** ParcelMap BC's parcel fabric, the one source form so far. */
export const PARCELMAP_BC_SOURCE = 'parcelmap-bc';

export const PARCELS_TABLES_DDL = `
CREATE TABLE parcels (             -- sorted by pid, id; only parcels with a PID
  id                VARCHAR NOT NULL, -- svc:parcels:bc:<PARCEL_FABRIC_POLY_ID>
  pid               VARCHAR NOT NULL, -- nine digits, 012345678
  name              VARCHAR NOT NULL, -- PARCEL_NAME
  plan_number       VARCHAR NOT NULL, -- '' when none
  municipality      VARCHAR NOT NULL,
  regional_district VARCHAR NOT NULL,
  parcel_class      VARCHAR NOT NULL,
  owner_type        VARCHAR NOT NULL,
  status            VARCHAR NOT NULL,
  area_sqm          DOUBLE,
  lng               DOUBLE NOT NULL,  -- a point inside the polygon
  lat               DOUBLE NOT NULL,
  west              DOUBLE NOT NULL,
  south             DOUBLE NOT NULL,
  east              DOUBLE NOT NULL,
  north             DOUBLE NOT NULL,
  geometry          VARCHAR NOT NULL, -- GeoJSON Polygon or MultiPolygon, EPSG:4326
  source            VARCHAR NOT NULL,
  source_id         VARCHAR NOT NULL  -- PARCEL_FABRIC_POLY_ID
);
`;
