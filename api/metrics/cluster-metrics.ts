import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * `canmap serve --processes N`: every process listens on the one admin port, so a scrape reaches
 * one of them. That process asks the primary, which gathers every process's registry (prom-client's
 * AggregatorRegistry, over the cluster's IPC) and merges them by each metric's `aggregator`:
 * request counts summed, readiness the lowest, queue counts (the same Redis) taken once.
 */
const ASK = 'canmap:metrics-ask';
const ANSWER = 'canmap:metrics-answer';
/** prom-client gives up on a process that does not answer after 5 s; this waits a little longer. */
const ANSWER_TIMEOUT_MS = 6000;

interface Ask { type: typeof ASK; id: string }
interface Answer { type: typeof ANSWER; id: string; text?: string; error?: string }

const isAsk = (m: unknown): m is Ask => (m as Ask | null)?.type === ASK;
const isAnswer = (m: unknown): m is Answer => (m as Answer | null)?.type === ANSWER;

/** What GET /metrics serves: this process's registry, or in a cluster the merge of every process's. */
export interface MetricsSource {
  contentType: string;
  scrape(): Promise<string>;
}

export function metricsSource(registry: Registry): MetricsSource {
  if (!cluster.isWorker) return { contentType: registry.contentType, scrape: () => registry.metrics() };
  // Constructing one installs prom-client's answer to the primary's requests; it reports this registry.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<string, { resolve(text: string): void; reject(err: Error): void }>();
  process.on('message', (message: unknown) => {
    if (!isAnswer(message)) return;
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) pending?.reject(new Error(message.error));
    else pending?.resolve(message.text ?? '');
  });
  return {
    contentType: registry.contentType,
    scrape: () => new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the primary process did not answer within ${ANSWER_TIMEOUT_MS} ms`));
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, {
        resolve: (text) => { clearTimeout(timer); resolve(text); },
        reject: (err) => { clearTimeout(timer); reject(err); },
      });
      process.send!({ type: ASK, id } satisfies Ask);
    }),
  };
}

/** In the primary of `serve --processes N`: answers each process's ask with every process's metrics merged. */
export function answerClusterScrapes(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isAsk(message)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (err: Error) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, error: err.message } satisfies Answer),
    );
  });
}
