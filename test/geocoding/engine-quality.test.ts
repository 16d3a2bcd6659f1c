import { describe, expect, it } from 'vitest';
import { geocoderFromCorpus } from '../../engines/geocoding/open.ts';
import { testCorpus } from '../support/geocoding-engine-corpus.ts';

const g = geocoderFromCorpus(testCorpus(), 'test-release');
const en = { lang: 'en', limit: 10 };

describe('search: a query that is exactly a province spelling', () => {
  it.each(['Que.', 'Province of Quebec', 'Québec', 'P.Q.'])('%j answers the province first', (q) => {
    const rs = g.search(q, en);
    expect(rs[0]).toMatchObject({ layer: 'region', source_id: 'QC', match_type: 'exact' });
    expect(rs.filter((r) => r.source_id === 'QC')).toHaveLength(1);
  });

  it('keeps a city of the same name right after it, and yields to filters', () => {
    expect(g.search('Québec', en).slice(0, 2).map((r) => r.layer)).toEqual(['region', 'locality']);
    expect(g.search('Que.', { ...en, layers: ['locality'] }).every((r) => r.layer !== 'region')).toBe(true);
    expect(g.search('Que.', { ...en, region: 'BC' }).some((r) => r.source_id === 'QC')).toBe(false);
  });
});

describe('search: ranking', () => {
  it('reads a French street type on an English-named street as the same street', () => {
    const rs = g.search('rue Georgia, Vancouver', en);
    expect(rs[0]).toMatchObject({ layer: 'street', name: 'West Georgia Street' });
    expect(rs[0]!.match_reasons ?? []).not.toContain('terms_unmatched');
  });
});
