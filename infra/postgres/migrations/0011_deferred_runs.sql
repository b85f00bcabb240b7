-- Up Migration
-- Runs waiting for a time (ARCHITECTURE §12, quiet hours that defer): the worker that deferred a step
-- writes when the run goes on; every worker looks for runs whose time has come and resumes them
-- (under the execution's advisory lock, so one of them does). Deleted once resumed.
CREATE TABLE deferred_runs (
  execution_id text        PRIMARY KEY,
  org_id       text        NOT NULL,
  until        timestamptz NOT NULL,
  -- the fact the run was last advanced by: the resumed run's facts are caused by it
  cause        jsonb       NOT NULL
);
CREATE INDEX deferred_runs_until_idx ON deferred_runs (until);

-- Down Migration
DROP TABLE deferred_runs;
