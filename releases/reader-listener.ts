import pg from 'pg';
import type { ReaderLog } from './reader-log.ts';

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 10_000;
/** A Postgres that accepts connections but does not answer must not hold up `start()`. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A dedicated connection LISTENing on one channel. If it drops it reconnects with exponential
 * backoff and calls `onReconnect`, since notifications sent while it was away are lost.
 */
export class ChannelListener {
  private client: pg.Client | null = null;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private attempts = 0;

  constructor(
    private readonly deps: {
      databaseUrl: string;
      channel: string;
      log: ReaderLog;
      onNotification(payload: string | undefined): void;
      onReconnect(): void;
      /** Connecting and issuing LISTEN each give up after this long (then retried with backoff). */
      connectTimeoutMs?: number;
    },
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.attempts += 1;
    const timeoutMs = this.deps.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const client = new pg.Client({
      connectionString: this.deps.databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs, // its one query is LISTEN
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      if (this.stopped) return;
      this.deps.log.warn({ err: err?.message }, `release listener lost its connection; retrying in ${this.retryMs} ms`);
      this.scheduleRetry();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => this.deps.onNotification(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.deps.channel)}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (lost || this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    if (this.attempts > 1) {
      this.deps.log.info({}, 'release listener reconnected');
      this.deps.onReconnect();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }
}
