-- Up Migration
-- The worker's idempotency records (ARCHITECTURE §11, §12): one row per tool call of a run, keyed by
-- executionId/stepId/hash(args). A step re-run after a crash finds its row and acts no second time.
-- The row is written before the ExecutionEvent that carries it is published.
CREATE TABLE tool_effects (
  idempotency_key text        PRIMARY KEY,
  execution_id    text        NOT NULL,
  org_id          text        NOT NULL,
  step_id         text        NOT NULL,
  capability_id   text        NOT NULL,
  args            jsonb       NOT NULL,
  status          text        NOT NULL CHECK (status IN ('succeeded', 'failed', 'skipped', 'rejected')),
  output          jsonb,
  error           jsonb,
  at              timestamptz NOT NULL
);
CREATE INDEX tool_effects_execution_idx ON tool_effects (execution_id, at);

-- Which graph an execution runs: 'graph-creator' (a creation) or the id of the employee whose run it is.
ALTER TABLE graph_executions ADD COLUMN employee_id text;

-- Down Migration
ALTER TABLE graph_executions DROP COLUMN employee_id;
DROP TABLE tool_effects;
