-- Up Migration
-- The projector rewrites an execution's row for nearly every fact of it, and `updated_at` moves with
-- each: as long as an index holds `updated_at`, no such update can be a heap-only (HOT) one, and every
-- one inserts into all six indexes of `executions`. The inbox lists waiting executions by `created_at`
-- (read.ts, `listExecutions`), and a conversation's pending prompts are found through
-- `executions_org_conversation_idx`: the waiting index is keyed by what they order by, which does not move.
DROP INDEX executions_waiting_idx;
CREATE INDEX executions_waiting_idx ON executions (org_id, created_at DESC) WHERE status = 'waiting';

-- Down Migration
DROP INDEX executions_waiting_idx;
CREATE INDEX executions_waiting_idx ON executions (org_id, updated_at DESC) WHERE status = 'waiting';
