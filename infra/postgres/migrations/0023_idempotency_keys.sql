-- Up Migration
-- An Idempotency-Key of POST /v1/triggers, with a hash of the request it was first used for (docs/decisions.md,
-- 2026-11-30): the same key sent again with the same request answers the same ids; with another request it is
-- refused (422) instead of that request being dropped in silence.
CREATE TABLE idempotency_keys (
  org_id text NOT NULL,
  user_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, user_id, key)
);

-- Down Migration
DROP TABLE idempotency_keys;
