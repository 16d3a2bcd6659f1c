/**
 * What the generator keeps of the corpus it writes, for the runner to draw realistic queries
 * from without reading 15M rows back: uniform samples (reservoir) of address rows, streets and
 * POIs, every locality with its address count, and a summary of the run. Written as
 * samples.json last, so its presence marks a complete corpus.
 */
import type { Random } from '../../../lib/seeded-random.ts';

export interface SampleAddress {
  number: string;
  unit: string;
  street: string;
  city: string;
  region: string;
  postcode: string;
  lng: number;
  lat: number;
}

export interface SampleStreet {
  street: string;
  city: string;
  region: string;
  lng: number;
  lat: number;
}

export interface SamplePoi {
  name: string;
  nameFr: string | null;
  category: string;
  city: string;
  lng: number;
  lat: number;
}

export interface SampleLocality {
  name: string;
  region: string;
  population: number;
  lng: number;
  lat: number;
  addresses: number;
  pois: number;
}

export interface CorpusSummary {
  seed: number;
  scale: number;
  addresses: number;
  unitRows: number;
  rowsWithPostcode: number;
  streets: number;
  pois: number;
  poisWithAddress: number;
  poisWithFrenchName: number;
  localities: number;
  seconds: number;
  files: { addresses: string; osm: string; localities: string };
  bytes: { addresses: number; osm: number };
}

export interface CorpusSamples {
  summary: CorpusSummary;
  addresses: SampleAddress[];
  streets: SampleStreet[];
  pois: SamplePoi[];
  localities: SampleLocality[];
}

export const SAMPLES_FILE = 'samples.json';

/** Algorithm R: a uniform sample of `size` items from a stream of unknown length. */
export class Reservoir<T> {
  readonly items: T[] = [];
  private seen = 0;

  constructor(private readonly size: number, private readonly random: Random) {}

  /** Whether the next item would be kept: call before building it, then offer() it if true. */
  wants(): boolean {
    this.seen++;
    if (this.items.length < this.size) return true;
    this.slot = this.random.int(this.seen);
    return this.slot < this.size;
  }

  private slot = -1;

  offer(item: T): void {
    if (this.items.length < this.size) this.items.push(item);
    else this.items[this.slot] = item;
  }
}
