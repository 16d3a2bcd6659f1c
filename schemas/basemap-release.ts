/** Layout of a basemap release directory (written by ingest/basemap, read by engines/basemap). */
export const BASEMAP_KIND = 'basemap';
export const BASEMAP_SCHEMA_VERSION = 1;
/** The country archive: vector tiles z0–14 in the Protomaps basemap schema. */
export const BASEMAP_ARCHIVE = 'basemap.pmtiles';
/** The deepest zoom the basemap serves: deeper tiles are overzoomed by the client. */
export const BASEMAP_SERVED_MAX_ZOOM = 14;
