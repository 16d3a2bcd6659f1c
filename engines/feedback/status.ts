import { FEEDBACK_STATUSES, type FeedbackStatus } from '../../schemas/feedback-api.ts';

/**
 * The review moves of volume 2, "Feedback report status": a new report goes to one outcome.
 * Moves between statuses after the first are not shown there, so none is allowed here.
 */
const MOVES: Readonly<Record<FeedbackStatus, readonly FeedbackStatus[]>> = {
  new: ['confirmed', 'needs-source-fix', 'needs-ranking-fix', 'upstream', 'fixed', 'wont-fix'],
  confirmed: [],
  'needs-source-fix': [],
  'needs-ranking-fix': [],
  upstream: [],
  fixed: [],
  'wont-fix': [],
};

export function isFeedbackStatus(value: string): value is FeedbackStatus {
  return (FEEDBACK_STATUSES as readonly string[]).includes(value);
}

export function nextStatuses(from: FeedbackStatus): readonly FeedbackStatus[] {
  return MOVES[from];
}

export function canMove(from: FeedbackStatus, to: FeedbackStatus): boolean {
  return MOVES[from].includes(to);
}

/** Why a move is refused, for the reviewer. */
export function refusedMove(id: string, from: FeedbackStatus, to: FeedbackStatus): string {
  const allowed = nextStatuses(from);
  return allowed.length
    ? `feedback ${id} is ${from}: it can move to ${allowed.join(', ')}, not ${to}`
    : `feedback ${id} is already ${from}: only a new report changes status (new → ${MOVES.new.join(' | ')})`;
}
