/*
 * BC Parcel Identifiers (PIDs): nine digits, written 012-345-678 or 012345678, optionally
 * after "PID", "PID:", "PID no." or "PID #".
 */
import { QueryError } from '../../lib/query-error.ts';

/** A PID refused (a QueryError, so the API answers 400); the part at fault is always the PID. */
export class PidParseError extends QueryError {
  readonly part = 'pid' as const;
}

export interface Pid {
  /** Nine digits: '012345678'. */
  pid: string;
  /** '012-345-678'. */
  formatted: string;
}

const MAX_PID_TEXT = 40;
const PREFIX = /^PID(?:\s*(?:NO\.?|NUMBER|#))?\s*:?\s*/i;
const NINE_DIGITS = /^(?:\d{9}|\d{3}([-\s])\d{3}\1\d{3})$/;
/** After a PID prefix, any run of digits with dashes or spaces is meant as a PID (and may be refused). */
const PREFIXED_BODY = /^\d[\d\s-]*$/;

function split(text: string): { prefixed: boolean; body: string } {
  const trimmed = text.trim();
  const prefix = PREFIX.exec(trimmed);
  return prefix ? { prefixed: true, body: trimmed.slice(prefix[0].length) } : { prefixed: false, body: trimmed };
}

/**
 * Whether the text is written as a PID: nine digits, dashed 3-3-3 or not (spaces as dashes),
 * or anything made of digits after a PID prefix ("PID 1234", which parsePid then refuses).
 * False for phone numbers (604-555-1234), postal codes and addresses (123-456 Main St).
 */
export function looksLikePid(text: string): boolean {
  if (typeof text !== 'string' || text.length > MAX_PID_TEXT) return false;
  const { prefixed, body } = split(text);
  return NINE_DIGITS.test(body) || (prefixed && PREFIXED_BODY.test(body));
}

/** Reads a PID; throws PidParseError saying what is wrong. */
export function parsePid(text: string): Pid {
  if (typeof text !== 'string' || text.length > MAX_PID_TEXT) throw new PidParseError('not a PID: expected nine digits such as 012-345-678');
  const { prefixed, body } = split(text);
  if (!NINE_DIGITS.test(body)) {
    if (!prefixed && !PREFIXED_BODY.test(body)) throw new PidParseError('not a PID: expected nine digits such as 012-345-678');
    const digits = body.replace(/\D/g, '');
    if (digits.length !== 9) {
      throw new PidParseError(`PID ${body} has ${digits.length} digit${digits.length === 1 ? '' : 's'}; a BC PID has nine, such as 012-345-678`);
    }
    throw new PidParseError(`PID ${body}: write it as nine digits, dashes after the third and sixth (012-345-678) or none`);
  }
  const pid = body.replace(/\D/g, '');
  return { pid, formatted: `${pid.slice(0, 3)}-${pid.slice(3, 6)}-${pid.slice(6)}` };
}
