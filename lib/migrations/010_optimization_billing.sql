-- Optimization billing (volume 3, "Optimization", Billing 2 and 3): when each shipment identity
-- was first billed to a payer. A re-solve within 24 hours of billed_at is free and leaves the row
-- alone (the window is not extended); the first solve after it bills again and moves billed_at.
-- payer is the account id, or 'key:<id>' for keys without an account (account ids cannot hold ':').
-- identity is the sha256 hex of engines/access/optimization-billing.ts shipmentIdentity.

CREATE TABLE optimization_billed (
  payer      text NOT NULL,
  identity   text NOT NULL CHECK (identity ~ '^[0-9a-f]{64}$'),
  billed_at  timestamptz NOT NULL,
  PRIMARY KEY (payer, identity)
);
-- pruneBilled deletes rows whose window has ended.
CREATE INDEX optimization_billed_at ON optimization_billed (billed_at);
