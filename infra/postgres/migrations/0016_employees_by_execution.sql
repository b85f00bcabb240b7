-- Up Migration
-- When an ExecutionResult registers an employee, the projector reads the versions its execution
-- registered already (a redelivered result registers nothing new). No index held `execution_id`, so that
-- read went through every version of the name, and the cost of a registration grew with them.
CREATE INDEX employees_execution_idx ON employees (execution_id);

-- Down Migration
DROP INDEX employees_execution_idx;
