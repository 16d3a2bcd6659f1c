/**
 * The two-pass sink every generator part writes through. The file needs all nodes before any
 * way, so each part runs twice with the same sub-seed: in the node pass only its nodes reach the
 * writer, in the way pass only its ways (relations are kept, they are few, and written last).
 * Ids come from counters that advance identically in both passes, so a way's refs are the ids
 * its nodes got in the node pass; where each part's node ids start is recorded in the node pass
 * and checked in the way pass, which lets one part (a road) reference another's (a town gateway).
 */
import type { OsmPbfWriter, OsmWriteRelation } from '../../../samples/geocoding/pbf-writer.ts';

export type Tags = Record<string, string>;
export type Pass = 'nodes' | 'ways';

export class Emitter {
  pass: Pass = 'nodes';
  private nextNode = 1;
  private nextWay = 1;
  private nextRelation = 1;
  private readonly partStarts: number[] = [];
  readonly relations: OsmWriteRelation[] = [];

  constructor(private readonly writer: OsmPbfWriter) {}

  /** Starts pass `pass` from id 1. */
  begin(pass: Pass): void {
    this.pass = pass;
    this.nextNode = 1;
    this.nextWay = 1;
    this.nextRelation = 1;
  }

  /** Marks the start of part `index` (parts run in the same order in both passes). */
  startPart(index: number): void {
    if (this.pass === 'nodes') this.partStarts[index] = this.nextNode;
    else if (this.partStarts[index] !== this.nextNode) {
      throw new Error(`synthetic OSM part ${index} starts at node ${this.nextNode} in the way pass, ${this.partStarts[index]} in the node pass`);
    }
  }

  /** The id of the `offset`-th node of part `index` (known once the node pass has run past it). */
  partNode(index: number, offset: number): number {
    const start = this.partStarts[index];
    if (start === undefined) throw new Error(`synthetic OSM part ${index} has not been laid out yet`);
    return start + offset;
  }

  node(lng: number, lat: number, tags?: Tags): number {
    const id = this.nextNode++;
    if (this.pass === 'nodes') this.writer.node(tags ? { id, lng, lat, tags } : { id, lng, lat });
    return id;
  }

  way(refs: readonly number[], tags?: Tags): number {
    const id = this.nextWay++;
    if (this.pass === 'ways') this.writer.way(tags ? { id, refs, tags } : { id, refs });
    return id;
  }

  /** A closed way: the ring's nodes, then its first again. */
  ring(refs: readonly number[], tags?: Tags): number {
    return this.way([...refs, refs[0]!], tags);
  }

  relation(members: OsmWriteRelation['members'], tags: Tags): number {
    const id = this.nextRelation++;
    if (this.pass === 'ways') this.relations.push({ id, members, tags });
    return id;
  }

  get counts(): { nodes: number; ways: number; relations: number } {
    return { nodes: this.nextNode - 1, ways: this.nextWay - 1, relations: this.nextRelation - 1 };
  }
}
