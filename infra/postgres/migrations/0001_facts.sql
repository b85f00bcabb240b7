-- Up Migration
-- The append-only fact log (ARCHITECTURE §6). The application never updates or deletes a row.
CREATE TABLE facts (
  seq             bigserial PRIMARY KEY,
  id              uuid        NOT NULL UNIQUE,
  topic           text        NOT NULL,
  type            text        NOT NULL,
  org_id          text        NOT NULL,
  execution_id    text,
  conversation_id text,
  payload         jsonb       NOT NULL,
  headers         jsonb       NOT NULL DEFAULT '{}'::jsonb,
  kafka_partition integer,
  kafka_offset    bigint,
  ts              timestamptz NOT NULL,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  prev_hash       text,
  hash            text        NOT NULL
);
CREATE INDEX facts_execution_idx ON facts (execution_id, seq) WHERE execution_id IS NOT NULL;
CREATE INDEX facts_conversation_idx ON facts (conversation_id, seq) WHERE conversation_id IS NOT NULL;
CREATE INDEX facts_org_idx ON facts (org_id, seq);

-- Down Migration
DROP TABLE facts;
