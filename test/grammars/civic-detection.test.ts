import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectGrammar } from '../../engines/grammars/detect.ts';
import { sharedData } from '../support/paths.ts';

describe('grammar detection on real civic addresses', () => {
  it('takes none of 56,000 Canadian street addresses for a land description, UWI or PID', () => {
    const file = sharedData('geocoding', 'mneyrane-CA-address-parser', 'test_sequences_real.csv.gz');
    const addresses = gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n').map((line) => line.split('|')[0]!);
    expect(addresses.length).toBeGreaterThan(50_000);
    const detected = addresses.map((q) => ({ q, grammar: detectGrammar(q) })).filter((d) => d.grammar !== null);
    expect(detected).toEqual([]);
  });
});
