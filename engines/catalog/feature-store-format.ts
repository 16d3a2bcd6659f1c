/**
 * A catalog layer's feature store: what /identify and /data/query read.
 *
 * `<layer>.features`: magic (8 bytes), count (uint32), 4 spare bytes, count + 1 float64 record
 * offsets (relative to the first record), then per feature a record: uint32 length of the
 * properties JSON, the JSON, the geometry (geometry-codec.ts).
 * `<layer>.flatbush`: a packed Flatbush R-tree over the features' bboxes, item i = record i.
 */

export const FEATURES_MAGIC = Buffer.from('CMFEAT1\n', 'latin1');
export const FEATURES_HEADER_BYTES = 16;

export const featuresFileName = (layerId: string): string => `${layerId}.features`;
export const spatialIndexFileName = (layerId: string): string => `${layerId}.flatbush`;

/** What a record holds besides its geometry: the result fields of volume 3 plus the layer's own. */
export interface StoredProperties {
  id: string;
  name: string;
  province: string;
  [field: string]: unknown;
}
