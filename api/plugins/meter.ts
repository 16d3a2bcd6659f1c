import fp from 'fastify-plugin';
import { createMeterWriter, type MeterWriter } from '../../engines/access/meter-writer.ts';
import { createMetering } from '../../engines/access/metering.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createMeterHook, type OnSend } from '../access/meter.ts';
import '../fastify-types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The meter's onSend hook, for answers sent outside the hooks (api/access/meter.ts sendMetered). */
    meterOnSend?: OnSend;
  }
}

export interface MeterPluginOptions {
  databaseUrl: string;
  /** How long answers wait for Postgres to commit their usage before they become 503s. */
  holdMs: number;
  /** Test-only: a writer of the test's own making. */
  writer?: MeterWriter;
}

/**
 * Metering (engines/access/metering.ts): every answer to an authenticated request is counted in
 * Postgres before it is sent (group commit, engines/access/meter-writer.ts). Registered after the
 * rate limiter; `app.close()` commits what is pending. The writer has a pool of its own, so its
 * commits never queue behind route queries or key lookups, nor they behind it.
 */
export const meterPlugin = fp<MeterPluginOptions>(
  async (app, options) => {
    let pool: Pool | null = null;
    const writer = options.writer ?? createMeterWriter({
      pool: (pool = createPool(options.databaseUrl, 4)),
      holdMs: options.holdMs,
      onProblem: (err, what) => {
        if (what !== 'retry') app.log.warn({ err }, `metering: ${what === 'gave-up' ? 'a batch was given up (its answers were 503s)' : 'revoking a given-up batch failed; will retry'}`);
      },
    });
    const hook = createMeterHook({ writer, metering: createMetering(), now: () => app.now() });
    app.addHook('onSend', hook);
    app.decorate('meterOnSend', hook);
    app.addHook('onClose', async () => {
      await writer.close();
      await pool?.end();
    });
  },
  { name: 'canmap-meter', dependencies: ['canmap-auth', 'canmap-clock'] },
);
