/**
 * Layout of `energy.duckdb`, the one artifact of an energy release besides manifest.json: oil and
 * gas wells and facilities. ingest/energy writes exactly these tables; engines/energy/release.ts
 * reads them READ_ONLY into memory at open time.
 */
/** The release kind (and job kind) of wells and facilities. */
export const ENERGY_KIND = 'energy';
export const ENERGY_SCHEMA_VERSION = 1;
export const ENERGY_DATABASE_FILE = 'energy.duckdb';

/** Where a row came from: the published CSV form it was read in. */
export const ENERGY_SOURCES = {
  /** AER ST37 "List of Wells in Alberta" (Alberta, and Saskatchewan rows written in the same form). */
  aerWells: 'aer-st37',
  /** BC Energy Regulator well surface locations. */
  bcerWells: 'bcer-wells',
  /** AER ST102 facility list. */
  aerFacilities: 'aer-st102',
} as const;

export const ENERGY_TABLES_DDL = `
CREATE TABLE wells (           -- sorted by compact, id
  id          VARCHAR NOT NULL, -- svc:energy:well:<source>:<compact UWI>
  uwi         VARCHAR NOT NULL, -- canonical display form, 100/14-36-085-17W6/00
  compact     VARCHAR NOT NULL, -- the 16-character form
  name        VARCHAR NOT NULL,
  licence     VARCHAR NOT NULL, -- AER licence number; BC well authorization (WA) number
  operator    VARCHAR NOT NULL,
  status      VARCHAR NOT NULL,
  province    VARCHAR NOT NULL, -- AB, BC or SK
  lng         DOUBLE NOT NULL,
  lat         DOUBLE NOT NULL,
  source      VARCHAR NOT NULL, -- ENERGY_SOURCES
  source_id   VARCHAR NOT NULL  -- the row's own id in its source (UWI or WA number)
);
CREATE TABLE facilities (      -- sorted by facility_id, id
  id            VARCHAR NOT NULL, -- svc:energy:facility:<facility id>
  facility_id   VARCHAR NOT NULL, -- ABBT0012345
  name          VARCHAR NOT NULL,
  licence       VARCHAR NOT NULL,
  operator      VARCHAR NOT NULL,
  status        VARCHAR NOT NULL,
  facility_type VARCHAR NOT NULL, -- the sub-type description
  province      VARCHAR NOT NULL,
  lng           DOUBLE NOT NULL,
  lat           DOUBLE NOT NULL,
  source        VARCHAR NOT NULL,
  source_id     VARCHAR NOT NULL
);
`;
