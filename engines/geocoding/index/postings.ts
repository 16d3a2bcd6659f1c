import { encodeStringTable } from './strings.ts';

/**
 * Token → entity posting lists over the entities accepted by `keep`, ascending entity id
 * (= importance descending).
 */
export function buildPostings(
  tokenCount: number,
  tokOffsets: Uint32Array,
  tokIds: Uint32Array,
  keep: (entity: number) => boolean,
): { offsets: Uint32Array; ids: Uint32Array } {
  const entityCount = tokOffsets.length - 1;
  const offsets = new Uint32Array(tokenCount + 1);
  for (let e = 0; e < entityCount; e++) {
    if (!keep(e)) continue;
    for (let k = tokOffsets[e]!; k < tokOffsets[e + 1]!; k++) offsets[tokIds[k]! + 1]! += 1;
  }
  for (let t = 0; t < tokenCount; t++) offsets[t + 1]! += offsets[t]!;
  const ids = new Uint32Array(offsets[tokenCount]!);
  const fill = offsets.slice(0, tokenCount);
  for (let e = 0; e < entityCount; e++) {
    if (!keep(e)) continue;
    for (let k = tokOffsets[e]!; k < tokOffsets[e + 1]!; k++) ids[fill[tokIds[k]!]!++] = e;
  }
  return { offsets, ids };
}

/**
 * Folded prefixes of 1..3 characters → the `depth` most important kept entities having a
 * token with that prefix (autocomplete on very short input, where a token range is too wide).
 */
export function buildShortPrefixes(
  tokens: readonly string[],
  tokOffsets: Uint32Array,
  tokIds: Uint32Array,
  keep: (entity: number) => boolean,
  depth: number,
): { keyBlob: Uint8Array; keyOffsets: Uint32Array; offsets: Uint32Array; ids: Uint32Array } {
  const lists = new Map<string, number[]>();
  const entityCount = tokOffsets.length - 1;
  for (let e = 0; e < entityCount; e++) {
    if (!keep(e)) continue;
    for (let k = tokOffsets[e]!; k < tokOffsets[e + 1]!; k++) {
      const t = tokens[tokIds[k]!]!;
      for (let len = 1; len <= 3 && len <= t.length; len++) {
        const key = t.slice(0, len);
        let list = lists.get(key);
        if (!list) lists.set(key, (list = []));
        if (list.length < depth && list[list.length - 1] !== e) list.push(e);
      }
    }
  }
  const keys = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const offsets = new Uint32Array(keys.length + 1);
  keys.forEach((key, i) => (offsets[i + 1] = offsets[i]! + lists.get(key)!.length));
  const ids = new Uint32Array(offsets[keys.length]!);
  keys.forEach((key, i) => ids.set(lists.get(key)!, offsets[i]!));
  const table = encodeStringTable(keys);
  return { keyBlob: table.blob, keyOffsets: table.offsets, offsets, ids };
}
