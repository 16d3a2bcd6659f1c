import type { ServiceLog } from '../deps.ts';

/**
 * What a routing facade method needs of the request it answers, without knowing HTTP: where to
 * log, the endpoint's name for those logs, and a signal that fires when the client goes away.
 */
export interface RoutingCall {
  log: ServiceLog;
  /** The endpoint's path (e.g. /route), named in the logs of a task over budget or cancelled. */
  endpoint: string;
  /** Aborted when the client goes away before the answer is written: a queued or running task is cancelled. */
  signal: AbortSignal;
}
