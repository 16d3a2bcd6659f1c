import fp from 'fastify-plugin';
import { createMeterJournal, type MeterJournal } from '../../io/access/meter-journal.ts';
import { createMetering } from '../../engines/access/metering.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createCallMeter, type CallMeter } from '../access/call-meter.ts';
import { createMeterHook, type OnSend } from '../access/meter-hook.ts';
import '../fastify-types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The meter's onSend hook, for answers sent outside the hooks (api/access/meter-hook.ts sendMetered). */
    meterOnSend?: OnSend;
    /** The meter's journal: `flush()` counts in Postgres what was answered so far. */
    meterJournal?: MeterJournal;
    /** The meter every front door counts its calls through (api/access/call-meter.ts). */
    callMeter?: CallMeter;
  }
}

export interface MeterPluginOptions {
  databaseUrl: string;
  /** This host's journal directory (METER_JOURNAL_DIR). */
  journalDir: string;
  /** Test-only: a journal of the test's own making. */
  journal?: MeterJournal;
}

const WARN_EVERY_MS = 60_000;

/**
 * Metering (engines/access/metering.ts): every answer to an authenticated request is appended to
 * this process's journal before it is sent, and counted in Postgres by the journal's flusher
 * (io/access/meter-journal.ts), on a pool of its own. `app.close()` counts what is left.
 */
export const meterPlugin = fp<MeterPluginOptions>(
  async (app, options) => {
    let pool: Pool | null = null;
    let lastWarnAt = -Infinity;
    const journal = options.journal ?? createMeterJournal({
      dir: options.journalDir,
      pool: (pool = createPool(options.databaseUrl, 2)),
      onProblem: (err) => {
        if (performance.now() - lastWarnAt < WARN_EVERY_MS) return;
        lastWarnAt = performance.now();
        app.log.warn({ err }, 'metering: flushing the journal to Postgres failed; retrying (answers are still journaled)');
      },
    });
    const meter = createCallMeter({ journal, metering: createMetering(), now: () => app.now() });
    const hook = createMeterHook(meter);
    app.addHook('onSend', hook);
    app.decorate('meterOnSend', hook);
    app.decorate('meterJournal', journal);
    app.decorate('callMeter', meter);
    app.addHook('onClose', async () => {
      try {
        await journal.close();
      } catch (err) {
        app.log.warn({ err }, 'metering: the journal could not be counted at close; the next API process on this host counts it');
      } finally {
        await pool?.end();
      }
    });
  },
  { name: 'canmap-meter', dependencies: ['canmap-auth', 'canmap-clock'] },
);
