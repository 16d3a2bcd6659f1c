/**
 * Everything /optimize checks before it bills or solves, as one step that runs on the check
 * worker for large bodies (check-pool.ts) and in place for small ones: the plan's count limits
 * first (volume 3 rule 8, VALIDATE_ONLY included), then the request itself and its billing
 * identities.
 */
import { shipmentIdentities } from '../../engines/access/optimization-billing-rules.ts';
import { checkOptimizationRequest, countLimitViolation, type CheckOptions, type CheckResult, type ExceededLimit, type PlanCountLimits } from '../../engines/optimization/request/check.ts';

export interface BodyCheckOptions extends CheckOptions {
  limits: PlanCountLimits;
}

export type CheckedBody =
  | { over: ExceededLimit }
  | {
    over: null;
    checked: CheckResult;
    /** shipmentIdentities of the checked request (null when there is none, or VALIDATE_ONLY). */
    identities: string[] | null;
  };

export function checkBody(body: unknown, options: BodyCheckOptions): CheckedBody {
  const over = countLimitViolation(body, options.limits);
  if (over) return { over };
  const checked = checkOptimizationRequest(body, options);
  return { over: null, checked, identities: checked.request && checked.solvingMode !== 'VALIDATE_ONLY' ? shipmentIdentities(checked.request) : null };
}
