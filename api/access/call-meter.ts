import type { IncomingHttpHeaders } from 'node:http';
import type { MeterJournal } from '../../io/access/meter-journal.ts';
import type { Metering } from '../../engines/access/metering.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import { utcDay } from '../../lib/utc-calendar.ts';
import { isUnbilledDevTraffic } from './dev-traffic.ts';

type HeaderValue = string | number | string[] | undefined;

/** One answered call of an endpoint, as the meter reads it (an HTTP answer, or a tool call standing for one). */
export interface AnsweredCall {
  key: KeyRecord;
  headers: IncomingHttpHeaders;
  method: string;
  /** The endpoint's path, percent-decoded (metering.ts pathOf): it decides the family. */
  path: string;
  statusCode: number;
  billableQueries?: HeaderValue;
  billableShipments?: HeaderValue;
  premium: boolean;
}

export interface CallMeter {
  /**
   * Appends the call's event to the journal (when it counts) and calls `done` once it is written,
   * with the error when it could not be: the caller then answers 503 and nothing is counted.
   * Callback style: this runs on every answer.
   */
  record(call: AnsweredCall, done: (err: Error | null) => void): void;
}

/** The one meter of a process: every front door counts its calls through it, by engines/access/metering.ts. */
export function createCallMeter({ journal, metering, now }: { journal: MeterJournal; metering: Metering; now: () => number }): CallMeter {
  return {
    record(call, done) {
      const calls = metering.callsOf(call);
      if (calls === 0) return done(null);
      const family = metering.familyOf(call.path);
      journal.record({
        day: utcDay(now()),
        keyId: call.key.id,
        accountId: call.key.accountId,
        family,
        dev: isUnbilledDevTraffic(call.headers, family),
        calls,
        premium: call.premium ? calls : 0,
      }, (err) => done(err ?? null));
    },
  };
}
