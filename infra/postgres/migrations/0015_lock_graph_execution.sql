-- Up Migration
-- A worker serialises every start, resume and cancel of one execution with a session advisory lock
-- (services/graph-creator/src/runner.ts), then reads the execution's row: two round trips, each run.
-- This function takes the lock and then reads the row, in one. It must be VOLATILE: a volatile
-- function takes a fresh snapshot for each query it runs, so the row is read after the lock is
-- granted and shows what the holder before committed; a single SELECT would read it as of its start.
CREATE FUNCTION lock_graph_execution(id text)
RETURNS TABLE (execution_id text, org_id text, owner_user_id text, conversation_id text, status text, employee_id text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_lock(hashtextextended(id, 42));
  RETURN QUERY
    SELECT g.execution_id, g.org_id, g.owner_user_id, g.conversation_id, g.status, g.employee_id
    FROM graph_executions g
    WHERE g.execution_id = id;
END
$$;

-- Down Migration
DROP FUNCTION lock_graph_execution(text);
