import { bboxContains, type BBox } from '../../lib/geo/bbox.ts';
import type { EnergyCorpus } from '../energy/release.ts';
import type { ParcelCorpus } from '../parcels/release.ts';
import type { GeocodeResult } from '../geocoding/types.ts';
import type { AnyResultLayer } from '../../schemas/geocoding-api.ts';
import { dlsResult, ntsResult } from './legal-land-result.ts';
import type { ParsedGrammar } from './parse.ts';
import { energyResult, parcelResult } from './record-results.ts';

/** The hard filters of a search (volume 2): what a grammar's hit must pass. */
export interface GrammarScope {
  /** The layers asked for; null: no layer filter. */
  layers: ReadonlySet<AnyResultLayer> | null;
  bbox?: BBox;
  /** Two-letter province code. */
  region?: string;
  limit: number;
  geometry: boolean;
}

/** The corpora a grammar reads: the enabled energy and parcel releases. */
export interface RecordSources {
  energy?: EnergyCorpus;
  parcels?: ParcelCorpus;
}

/** The release kind a parsed query needs, if any (land descriptions are computed). */
export const corpusOf = (parsed: ParsedGrammar): 'energy' | 'parcels' | null =>
  parsed.grammar === 'uwi' ? 'energy' : parsed.grammar === 'pid' ? 'parcels' : null;

const SCORE = 1;

/**
 * The answer to a query in a record grammar. A land description is its survey cell; a UWI, the
 * wells registered under it; a PID, its parcel. A parsed query with no matching row is []: never
 * a guessed centroid, never a fall-through to address ranking.
 */
export function grammarSearch(parsed: ParsedGrammar, scope: GrammarScope, sources: RecordSources): GeocodeResult[] {
  const options = { geometry: scope.geometry, score: SCORE };
  const results = ((): GeocodeResult[] => {
    switch (parsed.grammar) {
      case 'dls': return [dlsResult(parsed.cell, options)];
      case 'nts': return [ntsResult(parsed.cell, options)];
      case 'uwi': return need(sources.energy, 'energy').wellsByUwi(parsed.uwi.compact).map((well) => energyResult(well, options));
      case 'pid': {
        const parcels = need(sources.parcels, 'parcels');
        return parcels.byPid(parsed.pid).map((parcel) => parcelResult(parcel, parcels.province, options));
      }
    }
  })();
  return withinScope(results, scope);
}

/** layers=well and/or facility: free text over the energy corpus. */
export function energySearch(q: string, layers: readonly ('well' | 'facility')[], scope: GrammarScope, energy: EnergyCorpus): GeocodeResult[] {
  const records = energy.search(q, {
    layers,
    limit: scope.limit,
    ...(scope.bbox ? { bbox: [scope.bbox.minLon, scope.bbox.minLat, scope.bbox.maxLon, scope.bbox.maxLat] as [number, number, number, number] } : {}),
    ...(scope.region ? { region: scope.region } : {}),
  });
  return withinScope(records.map((record) => energyResult(record, { geometry: false, score: record.score })), scope);
}

function need<T>(source: T | undefined, kind: string): T {
  if (!source) throw new Error(`grammarSearch needs the ${kind} corpus`);
  return source;
}

const provinceOf = (result: GeocodeResult): string | undefined => result.legal_land?.province ?? result.address?.region;

/** Hard filters intersect: layers, bbox (the result's point), region (contradicting rows dropped, silent ones kept and marked). */
export function withinScope(results: GeocodeResult[], scope: GrammarScope): GeocodeResult[] {
  const kept: GeocodeResult[] = [];
  for (const result of results) {
    if (scope.layers && !scope.layers.has(result.layer)) continue;
    if (scope.bbox && !bboxContains(scope.bbox, result.lng, result.lat)) continue;
    if (scope.region !== undefined) {
      const province = provinceOf(result);
      if (province !== undefined && province !== scope.region) continue;
      if (province === undefined) {
        kept.push({ ...result, match_type: 'partial', match_reasons: ['region_not_verified'] });
        continue;
      }
    }
    kept.push(result);
  }
  return kept.slice(0, scope.limit);
}
