/** How a routing pool task ends without a result (the API answers each with its 503, volume 1 "503 variants"). */

/** The task ran out of its time budget: still queued, or running (its worker was then replaced). */
export class RoutingBudgetError extends Error {
  override readonly name = 'RoutingBudgetError';
  constructor(readonly stage: 'queued' | 'running', readonly elapsedMs: number) {
    super(`routing task over its time budget (${stage}, ${Math.round(elapsedMs)} ms)`);
  }
}

/** The queue is full (a burst past what the budget could drain), or the pool is closed. */
export class RoutingPoolBusyError extends Error {
  override readonly name = 'RoutingPoolBusyError';
}

/** The caller's signal aborted the task (its client went away). */
export class RoutingAbortError extends Error {
  override readonly name = 'RoutingAbortError';
  constructor() {
    super('routing task aborted');
  }
}
