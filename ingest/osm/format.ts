/**
 * OSM PBF file-format facts shared by the reader and the writer
 * (https://wiki.openstreetmap.org/wiki/PBF_Format, fileformat.proto and osmformat.proto).
 */

/** The format caps a BlobHeader at 64 KiB and a Blob at 32 MiB. */
export const MAX_BLOB_HEADER_BYTES = 64 * 1024;
export const MAX_BLOB_BYTES = 32 * 1024 * 1024;

/** Required features this reader understands; a file requiring anything else is refused. */
export const SUPPORTED_REQUIRED_FEATURES: readonly string[] = ['OsmSchema-V0.6', 'DenseNodes'];

/** Optional feature telling that nodes come before ways before relations, each sorted by id. */
export const SORTED_FEATURE = 'Sort.Type_then_ID';

/** Coordinates are stored as integers of `granularity` nanodegrees (default 100 = 1e-7 degree). */
export const DEFAULT_GRANULARITY = 100;

/** Field numbers (protobuf tags) of the messages we read and write. */
export const BLOB_HEADER = { type: 1, indexdata: 2, datasize: 3 } as const;
export const BLOB = { raw: 1, rawSize: 2, zlibData: 3, lzmaData: 4, bzip2Data: 5, lz4Data: 6, zstdData: 7 } as const;
export const HEADER_BLOCK = {
  bbox: 1,
  requiredFeatures: 4,
  optionalFeatures: 5,
  writingProgram: 16,
  source: 17,
  replicationTimestamp: 32,
} as const;
export const HEADER_BBOX = { left: 1, right: 2, top: 3, bottom: 4 } as const;
export const PRIMITIVE_BLOCK = { stringTable: 1, group: 2, granularity: 17, latOffset: 19, lonOffset: 20 } as const;
export const STRING_TABLE = { s: 1 } as const;
export const PRIMITIVE_GROUP = { nodes: 1, dense: 2, ways: 3, relations: 4, changesets: 5 } as const;
export const NODE = { id: 1, keys: 2, vals: 3, lat: 8, lon: 9 } as const;
export const DENSE_NODES = { id: 1, lat: 8, lon: 9, keysVals: 10 } as const;
export const WAY = { id: 1, keys: 2, vals: 3, refs: 8 } as const;
export const RELATION = { id: 1, keys: 2, vals: 3, rolesSid: 8, memids: 9, types: 10 } as const;

/** Relation.MemberType enum values, in order. */
export const MEMBER_TYPES = ['node', 'way', 'relation'] as const;
