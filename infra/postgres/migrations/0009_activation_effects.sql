-- Up Migration
-- Projections of a running employee (ARCHITECTURE §11), rebuilt from `facts` alone by `hireloop replay`.

-- Whether each registered employee is switched on: the latest EmployeeActivated / EmployeeDeactivated
-- of its id (both travel on the `employees` topic, keyed by employee, so they are folded in order).
CREATE TABLE employee_activations (
  employee_id   text PRIMARY KEY,
  org_id        text        NOT NULL,
  version       integer     NOT NULL,
  status        text        NOT NULL CHECK (status IN ('active', 'inactive')),
  -- webhook secrets derive from it: a new activation rotates them
  activation_id text,
  -- [{workflowId, triggerId, status:'on'|'off', reason?, schedule?}] of the latest activation
  workflows     jsonb       NOT NULL DEFAULT '[]',
  updated_at    timestamptz NOT NULL,
  last_seq      bigint      NOT NULL
);
CREATE INDEX employee_activations_org_idx ON employee_activations (org_id);

-- What a run did: one row per idempotency key (`executionId/stepId/hash(args)`), the latest record by seq.
CREATE TABLE execution_effects (
  idempotency_key text PRIMARY KEY,
  execution_id    text        NOT NULL,
  org_id          text        NOT NULL,
  step_id         text        NOT NULL,
  capability_id   text        NOT NULL,
  args            jsonb       NOT NULL,
  status          text        NOT NULL CHECK (status IN ('succeeded', 'failed', 'skipped', 'rejected')),
  output          jsonb,
  error           jsonb,
  at              timestamptz NOT NULL,
  first_seq       bigint      NOT NULL,
  last_seq        bigint      NOT NULL
);
CREATE INDEX execution_effects_execution_idx ON execution_effects (execution_id, first_seq);

-- The runs of one employee (GET /v1/executions?employeeId=) and the inbox (status 'waiting').
CREATE INDEX executions_org_employee_idx ON executions (org_id, employee_id, created_at DESC);
CREATE INDEX executions_waiting_idx ON executions (org_id, updated_at DESC) WHERE status = 'waiting';

-- Down Migration
DROP INDEX executions_waiting_idx;
DROP INDEX executions_org_employee_idx;
DROP TABLE execution_effects;
DROP TABLE employee_activations;
