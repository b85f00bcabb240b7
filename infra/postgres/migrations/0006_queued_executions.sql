-- Up Migration
-- A request waiting for a slot of its organisation (docs/decisions.md, 2026-11-24): status `queued`,
-- and the supervisor's ticket, whose order is the queue's; the position is counted when read.
ALTER TABLE executions DROP CONSTRAINT executions_status_check;
ALTER TABLE executions ADD CONSTRAINT executions_status_check
  CHECK (status IN ('queued', 'running', 'waiting', 'completed', 'cancelled', 'failed'));
ALTER TABLE executions ADD COLUMN queue_ticket integer;
CREATE INDEX executions_queue_idx ON executions (org_id, queue_ticket) WHERE status = 'queued';

-- Down Migration
DROP INDEX executions_queue_idx;
ALTER TABLE executions DROP COLUMN queue_ticket;
UPDATE executions SET status = 'running' WHERE status = 'queued';
ALTER TABLE executions DROP CONSTRAINT executions_status_check;
ALTER TABLE executions ADD CONSTRAINT executions_status_check
  CHECK (status IN ('running', 'waiting', 'completed', 'cancelled', 'failed'));
