import { percent } from '../../jobs/progress.ts';
import type { JobSnapshot } from '../../jobs/watch.ts';

const BAR_WIDTH = 30;

function describe(s: JobSnapshot): string {
  const pct = s.progress ? percent(s.progress.fraction) : '';
  if (s.state === 'delayed' && s.failedReason) return `attempt ${s.attemptsMade} failed (${s.failedReason}); retrying soon`;
  if (s.state === 'active') return [pct, s.progress?.message].filter(Boolean).join(' ') || 'started';
  return s.state;
}

/**
 * Shows a waiting job: a redrawn bar when stderr is a terminal, otherwise one plain line per
 * change (logs, CI). Plain lines are skipped with --json so scripts see only the document.
 */
export function createProgressView(json: boolean, stream: NodeJS.WriteStream = process.stderr) {
  const tty = Boolean(stream.isTTY);
  let drawn = false;
  return {
    update(s: JobSnapshot) {
      if (tty) {
        const fraction = s.progress?.fraction ?? 0;
        const filled = Math.round(fraction * BAR_WIDTH);
        const columns = stream.columns || 80;
        const line = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${describe(s)}`.slice(0, columns - 1);
        stream.write(`\r\x1b[2K${line}`);
        drawn = true;
      } else if (!json) {
        stream.write(`${describe(s)}\n`);
      }
    },
    /** Ends the drawn bar's line so a note can be printed; the next update draws it again. */
    interrupt() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
