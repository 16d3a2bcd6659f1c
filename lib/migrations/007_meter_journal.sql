-- Metering moves from a group commit before each answer to a write-ahead journal per API
-- process (engines/access/meter-journal.ts): each answer's event is appended to a local file
-- before the answer leaves, and flushers move the file into usage_daily. meter_journals holds,
-- per journal file, how many of its bytes are already counted; a flush adds the sums of the
-- lines after that offset and moves the offset in one transaction, so a file is counted once
-- whoever flushes it (its process, or another process of the host after a kill) and however
-- often a flush is retried.
CREATE TABLE meter_journals (
  id            text        PRIMARY KEY,           -- file name, <host>~<pid>~<nonce>~<seq>.meter
  flushed_bytes bigint      NOT NULL DEFAULT 0,
  flushed_at    timestamptz NOT NULL DEFAULT now(),
  -- Set once the file is deleted: a finished row is only pruned after two days.
  finished      boolean     NOT NULL DEFAULT false
);

DROP TABLE meter_batches;

-- Calls that used a premium capability (engines/access/capabilities.ts), of the calls in the row.
ALTER TABLE usage_daily ADD COLUMN premium_calls bigint NOT NULL DEFAULT 0;

-- The UTC month (YYYY-MM) in which a dev-plan account passed its premium-call ceiling
-- (volume 1, usage_limit_reached), set by the enforcement job; it lapses by itself next month.
ALTER TABLE accounts ADD COLUMN premium_limited_month text NULL CHECK (premium_limited_month ~ '^[0-9]{4}-[0-9]{2}$');
