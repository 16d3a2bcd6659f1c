import { randomBytes } from 'node:crypto';
import { QueryError } from '../../lib/query-error.ts';
import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_PRODUCTS,
  MAX_CONTEXT_BYTES,
  MAX_DESCRIPTION_CHARS,
  MAX_RESULT_ID_CHARS,
  type FeedbackCategory,
  type FeedbackProduct,
} from '../../schemas/feedback-api.ts';

/** A report that passed every rule of volume 2, "Feedback report"; what gets stored. */
export interface ReportInput {
  product: FeedbackProduct;
  category: FeedbackCategory;
  description: string | null;
  result_id: string | null;
  /** The compact JSON of the context, only when it was sent with include_context true. */
  context: string | null;
}

/** What POST /places/{id}/feedback puts in place of the body's product and result_id. */
export interface ReportOverride {
  product: FeedbackProduct;
  result_id: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const oneOf = <T extends string>(name: string, values: readonly T[], value: unknown): T => {
  if (value === undefined || value === null) throw new QueryError(`${name} is required`);
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw new QueryError(`${name} must be one of ${values.join(', ')}`);
  }
  return value as T;
};

/** An optional string member: null and absent are both "not given". */
const optionalString = (name: string, value: unknown, maxChars: number): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new QueryError(`${name} must be a string of at most ${maxChars} characters`);
  // Characters as people count them: code points, so an emoji is one (as the schema's maxLength counts).
  const chars = [...value].length;
  if (chars > maxChars) throw new QueryError(`${name} must be a string of at most ${maxChars} characters (got ${chars})`);
  // Postgres text cannot hold U+0000, and verbatim storage rules out dropping it.
  if (value.includes('\u0000')) throw new QueryError(`${name} must not contain the NUL character (\\u0000)`);
  return value;
};

const given = (value: string | null) => value !== null && value.trim() !== '';

/**
 * The report a request body describes, checked on the raw parsed body in the order of the
 * volume-2 table; the first rule broken is the QueryError (answered 400) naming its field.
 * Description and result_id are kept exactly as sent; a blank one counts as not given.
 */
export function parseReport(body: unknown, override?: ReportOverride): ReportInput {
  if (!isObject(body)) throw new QueryError('body must be a JSON object');
  const product = override?.product ?? oneOf('product', FEEDBACK_PRODUCTS, body.product);
  const category = oneOf('category', FEEDBACK_CATEGORIES, body.category);
  const description = optionalString('description', body.description, MAX_DESCRIPTION_CHARS);
  const resultId = override?.result_id ?? optionalString('result_id', body.result_id, MAX_RESULT_ID_CHARS);
  if (!given(description) && !given(resultId)) throw new QueryError('description or result_id is required');
  const include = body.include_context ?? false;
  if (typeof include !== 'boolean') throw new QueryError('include_context must be true or false');
  return { product, category, description, result_id: resultId, context: encodeContext(body.context, include) };
}

function encodeContext(context: unknown, include: boolean): string | null {
  if (context === undefined || context === null) return null;
  if (!isObject(context)) throw new QueryError('context must be a JSON object');
  if (!include) throw new QueryError('context is only accepted with include_context true; send include_context: true to have it stored');
  const encoded = JSON.stringify(context);
  const bytes = Buffer.byteLength(encoded, 'utf8');
  if (bytes > MAX_CONTEXT_BYTES) {
    throw new QueryError(`context must be at most 4 KB encoded (${MAX_CONTEXT_BYTES} bytes of compact JSON; got ${bytes})`);
  }
  return encoded;
}

/** `fb_<epoch ms>_<16 hex digits>`: sorts by time, and 64 random bits keep ids of one millisecond apart. */
export function newReportId(nowMs: number): string {
  return `fb_${Math.trunc(nowMs)}_${randomBytes(8).toString('hex')}`;
}
