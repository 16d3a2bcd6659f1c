const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Resolves on the first SIGTERM/SIGINT so the caller can shut down gracefully; a second
 * signal exits at once (130/143). `dispose` removes the handlers once shutdown is done.
 */
export function onStopSignal(notes: { first?: (s: NodeJS.Signals) => void; second?: (s: NodeJS.Signals) => void } = {}) {
  let resolveStop!: (signal: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (resolveStop = resolve));
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (!stopping) {
      stopping = true;
      notes.first?.(signal);
      return resolveStop(signal);
    }
    notes.second?.(signal);
    process.exit(SIGNAL_EXIT[signal] ?? 1);
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return {
    stopped,
    dispose() {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
    },
  };
}
