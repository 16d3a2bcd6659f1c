import { NO_RELEASE_ENABLED, type KindStatus } from '../../releases/reader.ts';
import type { HealthSnapshot } from './health-probe.ts';

export interface Readiness {
  ready: boolean;
  /** Why the process is not ready; empty when it is. */
  reasons: string[];
  /**
   * What is wrong without making it unready: a download from the release store that failed while
   * the kind still serves the release it had (taking the node out would serve nothing instead).
   */
  warnings: string[];
}

/**
 * Ready when Postgres and Redis answered their last check and every kind with an enabled release
 * serves one. A kind with nothing enabled is not a reason: there is nothing to wait for.
 */
export function readinessOf(health: HealthSnapshot, releases: Record<string, KindStatus>): Readiness {
  const reasons: string[] = [];
  for (const [name, dependency] of Object.entries(health)) {
    if (!dependency.ok) reasons.push(`${name} does not answer: ${dependency.error ?? 'no answer'}`);
  }
  const warnings: string[] = [];
  for (const [kind, status] of Object.entries(releases)) {
    if (status.state !== 'ready' && status.reason !== NO_RELEASE_ENABLED) reasons.push(`${kind}: ${status.reason ?? 'not served'}`);
    else if (status.state === 'ready' && status.sync?.state === 'failed') {
      warnings.push(`${kind}: serving ${status.id}; download of ${status.sync.releaseId} from the release store failed: ${status.sync.lastError ?? 'unknown error'}`);
    }
  }
  return { ready: reasons.length === 0, reasons, warnings };
}
