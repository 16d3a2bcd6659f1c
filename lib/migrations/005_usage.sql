-- Metered calls (volume 1, "What counts as a call"): one row per UTC day, key, endpoint family
-- and dev-origin flag; months are sums of days. Written by engines/access/meter-writer.ts.
CREATE TABLE usage_daily (
  day        date    NOT NULL,
  key_id     text    NOT NULL,
  account_id text    NULL,                -- null for founder/integration keys
  family     text    NOT NULL,            -- engines/access/metering.ts FAMILIES
  dev        boolean NOT NULL,            -- dev-origin traffic: counted, never billed
  calls      bigint  NOT NULL,
  PRIMARY KEY (day, key_id, family, dev)
);

CREATE INDEX usage_daily_account_day ON usage_daily (account_id, day);

-- One row per committed meter batch, written in the batch's own transaction: a retried batch
-- whose first COMMIT's outcome was unknown finds its id here and is not counted twice.
CREATE TABLE meter_batches (
  id           text        PRIMARY KEY,
  committed_at timestamptz NOT NULL DEFAULT now(),
  events       int         NOT NULL
);

CREATE INDEX meter_batches_committed_at ON meter_batches (committed_at);
