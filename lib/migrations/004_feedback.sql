-- Feedback reports (volume 2, "Feedback report" and its status table) and the daily count
-- behind the 200-reports-per-account-per-day limit.

-- Only the report itself: no key, account, address or header of the request. context holds the
-- reported request only when it was sent with include_context true (json, not jsonb: kept as encoded).
CREATE TABLE feedback_reports (
  id           text PRIMARY KEY,
  product      text NOT NULL CHECK (product IN ('tiles', 'terrain', 'names', 'geocoding', 'places', 'routing',
                                                'layers', 'transit', 'roads', 'ev')),
  category     text NOT NULL CHECK (category IN ('incorrect_location', 'incorrect_address', 'missing_place',
                                                  'wrong_place_name', 'wrong_category', 'bad_route', 'missing_road_closure',
                                                  'incorrect_road_condition', 'incorrect_transit_result', 'other')),
  description  text CHECK (char_length(description) <= 2000),
  result_id    text,
  context      json,
  status       text NOT NULL DEFAULT 'new'
               CHECK (status IN ('new', 'confirmed', 'needs-source-fix', 'needs-ranking-fix', 'upstream', 'fixed', 'wont-fix')),
  created_at   timestamptz NOT NULL,
  reviewed_at  timestamptz,
  reviewed_by  text,
  note         text,
  CHECK (description IS NOT NULL OR result_id IS NOT NULL)
);
CREATE INDEX feedback_reports_status ON feedback_reports (status, created_at DESC);
CREATE INDEX feedback_reports_created ON feedback_reports (created_at DESC);

-- One row per (account, or key for founder keys) and UTC day, bumped in the transaction that
-- inserts the report: `ON CONFLICT DO UPDATE ... WHERE reports < limit` locks the row, so
-- concurrent posts count exactly. subject is 'account:<id>' or 'key:<id>'.
CREATE TABLE feedback_daily_counts (
  subject  text NOT NULL,
  day      date NOT NULL,
  reports  integer NOT NULL CHECK (reports > 0),
  PRIMARY KEY (subject, day)
);
