/** Checks shared by the PBF blob and block decoders. */
import type { PbfReader } from 'pbf';
import { InvalidInputError } from '../errors.ts';

export function expectEnd(pbf: PbfReader, end: number): void {
  if (pbf.pos !== end) throw new Error(`message overruns its length (at ${pbf.pos}, expected end ${end})`);
}

/** Runs a decoder; any error it throws means the bytes are not what the format says. */
export function guard<T>(offset: number, path: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof InvalidInputError) throw err;
    throw new InvalidInputError(`corrupt OSM PBF file ${path}: blob at offset ${offset}: ${(err as Error).message}`);
  }
}
