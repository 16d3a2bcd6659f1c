import type { FastifyInstance, FastifyRequest } from 'fastify';
import { blockedAnswer } from '../access/block-answer.ts';
import { premiumCall, type CapabilityCall } from '../access/capability-check.ts';
import { pathOf } from '../../engines/access/metering.ts';
import { errors } from '../../lib/errors.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import { refusalOf } from './tool-errors.ts';

/** One call of an HTTP endpoint, as a tool makes it. */
export interface EndpointCall {
  method: 'GET' | 'POST';
  /** The route as registered (`/transit/stops/:id/departures`): the capability table's key. */
  route: string;
  /** The concrete path (`/transit/stops/svc%3A.../departures`): its family is what the call is counted under. */
  path: string;
}

/** What a call answered, with what the endpoint bills beyond one call (batch: its non-blank queries; optimization: its shipments). */
export interface CallOutcome<T> {
  value: T;
  billableQueries?: number;
  billableShipments?: number;
}

export interface CallGate {
  /** The blocked check and a rate-limit slot, for a call that stands for no endpoint (nothing to meter). */
  slot(): Promise<void>;
  /**
   * One call of `endpoint` under the rules its HTTP request meets, in the same order: the blocked
   * check and a rate-limit slot at the door; then `check` (the route's validation: the call's
   * parameters where the HTTP request carries them) and the premium-capability table; then `run`;
   * then the meter — the answer is released once its call is in the journal. A refusal or failure
   * after the door is metered as its HTTP status would be (a 400 is a call, a 403 is not) and
   * rethrown as a Refusal.
   */
  call<T>(endpoint: EndpointCall, check: () => CapabilityCall['input'], run: () => Promise<CallOutcome<T>>): Promise<T>;
}

/** One slot of the request key's rate limit (shared with its HTTP requests); a 429 rate_limited past it. */
export function takeRateLimitSlot(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const limiter = app.requestLimiter;
  if (limiter === null) return Promise.resolve();
  return new Promise((resolve, reject) => limiter.admit(request.apiKey!, request.log, (err) => (err ? reject(err) : resolve())));
}

/** The gate of the tool calls of one POST /mcp request (authenticated at the door: `request.apiKey` is set). */
export function createCallGate(app: FastifyInstance, request: FastifyRequest): CallGate {
  return new RequestGate(app, request);
}

// A class, not closures: one gate is made per request, and its methods are shared.
class RequestGate implements CallGate {
  private readonly key: KeyRecord;

  constructor(private readonly app: FastifyInstance, private readonly request: FastifyRequest) {
    this.key = request.apiKey!;
  }

  slot(): Promise<void> {
    return this.door('/mcp');
  }

  async call<T>(endpoint: EndpointCall, check: () => CapabilityCall['input'], run: () => Promise<CallOutcome<T>>): Promise<T> {
    await this.door(endpoint.path);
    let premium = false;
    let outcome: CallOutcome<T>;
    try {
      const input = check();
      premium = premiumCall({ key: this.key, headers: this.request.headers, method: endpoint.method, route: endpoint.route, input }, this.app.now());
      outcome = await run();
    } catch (err) {
      const refusal = refusalOf(err, this.request.log);
      await this.meter(endpoint, premium, refusal.statusCode);
      throw refusal;
    }
    await this.meter(endpoint, premium, 200, outcome);
    return outcome.value;
  }

  private async door(path: string): Promise<void> {
    const blocked = blockedAnswer(this.key, { headers: this.request.headers, url: path }, this.app.config.dashboardUrl);
    if (blocked) throw blocked;
    await takeRateLimitSlot(this.app, this.request);
  }

  private meter(endpoint: EndpointCall, premium: boolean, statusCode: number, outcome?: CallOutcome<unknown>): Promise<void> {
    const meter = this.app.callMeter;
    if (meter === undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      meter.record({
        key: this.key, headers: this.request.headers, method: endpoint.method, path: pathOf(endpoint.path), statusCode, premium,
        billableQueries: outcome?.billableQueries, billableShipments: outcome?.billableShipments,
      }, (err) => {
        if (!err) return resolve();
        this.request.log.warn({ err }, 'tool call answered 503: usage could not be recorded');
        reject(errors.serviceUnavailable('usage metering'));
      });
    });
  }
}
