-- Up Migration
-- The tool registry's shared rails (ARCHITECTURE §12): every worker reads and writes the same rows,
-- and a restart loses none of them.

-- Per-org rules: allowed tools, argument limits, quiet hours, rates, default budgets (schemas/src/policy.ts).
CREATE TABLE org_policies (
  org_id     text        PRIMARY KEY,
  policy     jsonb       NOT NULL,
  updated_at timestamptz NOT NULL
);

-- rate-limiter-flexible's RateLimiterPostgres table (its own shape): one counter per
-- `<rate prefix>:<org>:<tool>` key, points taken in the window that ends at `expire` (ms since epoch).
CREATE TABLE tool_rate_limits (
  key    varchar(255) PRIMARY KEY,
  points integer      NOT NULL DEFAULT 0,
  expire bigint
);

-- One circuit per org and tool: consecutive failures (cockatiel's ConsecutiveBreaker state), and since
-- when it is open or its half-open probe started. Updated under a row lock; the probe claimed by
-- compare-and-set, so one worker probes.
CREATE TABLE tool_circuits (
  org_id   text        NOT NULL,
  tool_id  text        NOT NULL,
  state    text        NOT NULL CHECK (state IN ('closed', 'open', 'half_open')),
  failures integer     NOT NULL DEFAULT 0,
  since    timestamptz,
  PRIMARY KEY (org_id, tool_id)
);

-- The run log (GET /v1/metrics/executions) counts an org's tool calls by outcome since a time.
CREATE INDEX tool_effects_org_idx ON tool_effects (org_id, at);

-- Down Migration
DROP INDEX tool_effects_org_idx;
DROP TABLE tool_circuits;
DROP TABLE tool_rate_limits;
DROP TABLE org_policies;
