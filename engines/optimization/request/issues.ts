/**
 * Validation issues of an Optimization request (volume 3 "Optimization response":
 * validationErrors[] of code, displayName, fields[{name}], errorMessage). The integer codes are
 * stable: clients may branch on them; never renumber, only append.
 */

export const ISSUE_CODES = {
  INVALID_ARGUMENT: 1,
  MISSING_REQUIRED_FIELD: 2,
  INVALID_TYPE: 3,
  MALFORMED_VALUE: 4,
  INVALID_VALUE: 5,
  OUT_OF_RANGE: 6,
  DUPLICATE_VALUE: 7,
  CONFLICTING_FIELDS: 8,
  UNKNOWN_FIELD: 9,
  UNKNOWN_TAG: 10,
  MATRIX_SHAPE_MISMATCH: 11,
  FIELD_NOT_SUPPORTED_YET: 12,
  VALUE_NOT_SUPPORTED_YET: 13,
} as const;

export type IssueName = keyof typeof ISSUE_CODES;

export interface ValidationIssue {
  code: number;
  displayName: IssueName;
  fields: { name: string }[];
  errorMessage: string;
}

export const DEFAULT_MAX_VALIDATION_ERRORS = 100;

/** Collects issues in document order, up to a cap (maxValidationErrors). */
export class Issues {
  readonly list: ValidationIssue[] = [];
  cap: number;

  constructor(cap = DEFAULT_MAX_VALIDATION_ERRORS) {
    this.cap = cap;
  }

  add(name: IssueName, field: string, errorMessage: string): void {
    if (this.list.length >= this.cap) return;
    this.list.push({ code: ISSUE_CODES[name], displayName: name, fields: [{ name: field }], errorMessage });
  }

  get full(): boolean {
    return this.list.length >= this.cap;
  }

  get count(): number {
    return this.list.length;
  }
}
