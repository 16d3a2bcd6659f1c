/** The poll status of one feed (row of road_feed_status). */
export interface FeedStatus {
  feed: string;
  jurisdiction: string;
  sourceUrl: string | null;
  /** The worker's schedule for this feed; freshness thresholds scale with it. */
  pollIntervalMs: number | null;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  lastChangeAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  anomaly: string | null;
  anomalyAt: Date | null;
  upstreamCount: number | null;
  storedCount: number;
  generation: number;
  /** Suspect empty answers in a row (refused), and when the first of them came. */
  emptyAnswers: number;
  emptySince: Date | null;
}
