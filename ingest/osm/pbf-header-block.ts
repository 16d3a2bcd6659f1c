/** Decoding of the OSMHeader block: required/optional features, bbox, writing program, replication time. */
import { PbfReader } from 'pbf';
import { HEADER_BBOX, HEADER_BLOCK } from './format.ts';
import { expectEnd } from './pbf-message.ts';

export interface OsmFileHeader {
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram: string | null;
  source: string | null;
  /** [minLng, minLat, maxLng, maxLat] when the header has one. */
  bbox: [number, number, number, number] | null;
  /** Seconds since the epoch (osmosis_replication_timestamp), null when absent. */
  replicationTimestamp: number | null;
}

export function decodeHeaderBlock(buf: Uint8Array): OsmFileHeader {
  const pbf = new PbfReader(buf);
  const header: OsmFileHeader = { requiredFeatures: [], optionalFeatures: [], writingProgram: null, source: null, bbox: null, replicationTimestamp: null };
  let tag: number;
  while ((tag = pbf.nextField())) {
    switch (tag) {
      case HEADER_BLOCK.bbox: {
        const end = pbf.readVarint() + pbf.pos;
        const nano = [0, 0, 0, 0];
        let t: number;
        while ((t = pbf.nextField(end))) {
          if (t === HEADER_BBOX.left) nano[0] = pbf.readSVarint();
          else if (t === HEADER_BBOX.bottom) nano[1] = pbf.readSVarint();
          else if (t === HEADER_BBOX.right) nano[2] = pbf.readSVarint();
          else if (t === HEADER_BBOX.top) nano[3] = pbf.readSVarint();
        }
        expectEnd(pbf, end);
        header.bbox = [nano[0]! / 1e9, nano[1]! / 1e9, nano[2]! / 1e9, nano[3]! / 1e9];
        break;
      }
      case HEADER_BLOCK.requiredFeatures:
        header.requiredFeatures.push(pbf.readString());
        break;
      case HEADER_BLOCK.optionalFeatures:
        header.optionalFeatures.push(pbf.readString());
        break;
      case HEADER_BLOCK.writingProgram:
        header.writingProgram = pbf.readString();
        break;
      case HEADER_BLOCK.source:
        header.source = pbf.readString();
        break;
      case HEADER_BLOCK.replicationTimestamp:
        header.replicationTimestamp = pbf.readVarint(true);
        break;
    }
  }
  expectEnd(pbf, buf.length);
  return header;
}
