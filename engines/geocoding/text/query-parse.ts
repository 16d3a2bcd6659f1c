/**
 * Free-text query parsing for search, batch and structured search (street line): civic number,
 * unit, postal code, postal-delivery terms, province spellings, canonical tokens. Autocomplete
 * input has its own parser (autocomplete-parse.ts).
 * Pure and allocation-light; every regex is compiled once at module load.
 */
import { parseCore } from './query-core.ts';
import { regionTokenSpans } from './provinces.ts';
import { canonicalTokens } from './street-terms.ts';

export interface ParsedQuery {
  /**
   * Civic number as written, folded: "43", "43a" (also from "43-A"), "43 1/2" (from "43 1/2" or
   * "43½"); absent when none.
   */
  housenumber?: string;
  /** "401" from "401-43 Hanna Ave", "Apt 4", "#401", "Unit 4", "Suite 200", "app 4", "bureau 200", "local 3". Folded. */
  unit?: string;
  /** Canonical A1A 1A1. */
  postcode?: string;
  /**
   * Remaining tokens after removing housenumber/unit/postcode/delivery terms, canonicalized, in
   * order. Country words (canada, ca) after a trailing province spelling are dropped too.
   */
  tokens: string[];
  /** Same tokens folded but not canonicalized (same length and order as tokens). */
  rawTokens: string[];
  /** Province spellings at the tail of the query (indices into tokens, [start, end)). */
  regions: Array<{ code: string; start: number; end: number }>;
  /** The query had postal delivery terms (PO Box, CP, RR, General Delivery, STN/SUCC, Site/Comp, Box N). */
  delivery: boolean;
}

export interface ParsedStreetLine {
  housenumber?: string;
  unit?: string;
  tokens: string[];
  rawTokens: string[];
  /** Postal delivery terms were present (and removed from tokens). */
  delivery: boolean;
  /** A civic number (possibly with a unit) and no street name: structured search answers 400. */
  civicOnly: boolean;
}

/** Free-text search query → parts (see ParsedQuery). Deciding 400s is the engine's job. */
export function parseQuery(raw: string): ParsedQuery {
  const core = parseCore(raw, true);
  const regions = regionTokenSpans(core.rawTokens);
  // "…, Toronto, ON, Canada": the country after a province spelling is noise ("Bank of Canada" keeps it).
  const lastRegion = regions[regions.length - 1];
  if (lastRegion !== undefined) core.rawTokens.length = lastRegion.end;
  const tokens = canonicalTokens(core.rawTokens);
  const q: ParsedQuery = {
    tokens,
    rawTokens: core.rawTokens,
    regions,
    delivery: core.delivery,
  };
  if (core.housenumber !== undefined) q.housenumber = core.housenumber;
  if (core.unit !== undefined) q.unit = core.unit;
  if (core.postcode !== undefined) q.postcode = core.postcode;
  return q;
}

/** Structured search `address` (street line). */
export function parseStreetLine(line: string): ParsedStreetLine {
  const core = parseCore(line, false);
  const tokens = canonicalTokens(core.rawTokens);
  const r: ParsedStreetLine = {
    tokens,
    rawTokens: core.rawTokens,
    delivery: core.delivery,
    civicOnly: core.housenumber !== undefined && tokens.length === 0,
  };
  if (core.housenumber !== undefined) r.housenumber = core.housenumber;
  if (core.unit !== undefined) r.unit = core.unit;
  return r;
}
