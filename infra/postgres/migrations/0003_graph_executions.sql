-- Up Migration
-- The graph-creator's own record of each execution it runs: who owns it (re-checked before every
-- resume), whether it still runs, and when it ended (the checkpoint retention job reads ended_at).
CREATE TABLE graph_executions (
  execution_id          text        PRIMARY KEY,
  org_id                text        NOT NULL,
  owner_user_id         text,
  conversation_id       text,
  status                text        NOT NULL CHECK (status IN ('running', 'completed', 'cancelled', 'failed')),
  started_at            timestamptz NOT NULL,
  ended_at              timestamptz,
  checkpoints_pruned_at timestamptz
);
CREATE INDEX graph_executions_retention_idx ON graph_executions (ended_at) WHERE ended_at IS NOT NULL AND checkpoints_pruned_at IS NULL;

-- Down Migration
DROP TABLE graph_executions;
