-- Up Migration
-- A run of an employee says which of its workflows it runs (the RunIntent's trigger payload carries it):
-- the page's "Runs" table shows what started each run.
ALTER TABLE executions ADD COLUMN workflow_id text;

-- Down Migration
ALTER TABLE executions DROP COLUMN workflow_id;
