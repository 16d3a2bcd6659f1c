-- Accounts, API keys, and the release registry with its enabled pointer and history.

CREATE TABLE accounts (
  id          text PRIMARY KEY,
  plan        text NOT NULL CHECK (plan IN ('hobby', 'indie', 'growth')),
  addons      text[] NOT NULL DEFAULT '{}'
              CHECK (addons <@ ARRAY['legal-land', 'energy', 'agriculture', 'remote', 'mining']),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- A key with no account is a founder/integration key. Only the sha256 of the key is stored.
CREATE TABLE api_keys (
  id               text PRIMARY KEY,
  key_hash         text NOT NULL UNIQUE,
  account_id       text REFERENCES accounts (id),
  allowed_origins  text[] NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  disabled_at      timestamptz
);

CREATE TABLE releases (
  id             text PRIMARY KEY,
  kind           text NOT NULL,
  content_hash   text NOT NULL,
  path           text NOT NULL,
  manifest       jsonb NOT NULL,
  created_at     timestamptz NOT NULL,
  registered_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, content_hash)
);
CREATE INDEX releases_kind_created ON releases (kind, created_at DESC);

CREATE TABLE enabled_releases (
  kind        text PRIMARY KEY,
  release_id  text NOT NULL REFERENCES releases (id),
  enabled_at  timestamptz NOT NULL DEFAULT now(),
  enabled_by  text NOT NULL
);

-- previous_release_id is what was enabled before this row took effect; rollback follows it.
CREATE TABLE release_history (
  id                   bigserial PRIMARY KEY,
  kind                 text NOT NULL,
  action               text NOT NULL CHECK (action IN ('enable', 'rollback')),
  release_id           text NOT NULL,
  previous_release_id  text,
  actor                text NOT NULL,
  at                   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX release_history_kind ON release_history (kind, id DESC);
