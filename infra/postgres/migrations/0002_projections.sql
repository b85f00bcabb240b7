-- Up Migration
-- The hash chain a fact belongs to (docs/decisions.md, "The hash chain"): its execution, else its
-- conversation within its org, else its org. Generated from the fact's own columns so that it can
-- never disagree with them; `/` cannot occur in an id, so the keys cannot collide.
ALTER TABLE facts ADD COLUMN chain_key text GENERATED ALWAYS AS (
  CASE
    WHEN execution_id IS NOT NULL THEN 'execution/' || execution_id
    WHEN conversation_id IS NOT NULL THEN 'conversation/' || org_id || '/' || conversation_id
    ELSE 'org/' || org_id
  END
) STORED;
CREATE INDEX facts_chain_idx ON facts (chain_key, seq);

-- Projections (ARCHITECTURE §6), rebuilt from `facts` alone by `hireloop replay`. Every timestamp
-- comes from a fact's `ts`, never from now(), so that a rebuild is byte-identical.
CREATE TABLE executions (
  execution_id    text PRIMARY KEY,
  org_id          text             NOT NULL,
  owner_user_id   text,
  conversation_id text,
  employee_id     text,
  trigger_id      text,
  status          text             NOT NULL CHECK (status IN ('running', 'waiting', 'completed', 'cancelled', 'failed')),
  current_prompt  jsonb,
  progress        double precision,
  phase           text,
  result          jsonb,
  error           jsonb,
  created_at      timestamptz      NOT NULL,
  updated_at      timestamptz      NOT NULL,
  last_seq        bigint           NOT NULL,
  -- bookkeeping that makes the fold independent of the order facts arrive in across topics
  prompt_ids      jsonb            NOT NULL DEFAULT '[]',
  early_answers   jsonb            NOT NULL DEFAULT '[]',
  progress_at     timestamptz
) WITH (fillfactor = 80); -- rows are updated several times each: room for HOT updates
CREATE INDEX executions_org_conversation_idx ON executions (org_id, conversation_id, created_at DESC);
CREATE INDEX executions_org_idx ON executions (org_id, created_at DESC);

-- Who may answer what: the conversation and user of the RunIntent that started each execution.
CREATE TABLE conversation_executions (
  execution_id    text PRIMARY KEY,
  conversation_id text NOT NULL,
  org_id          text NOT NULL,
  user_id         text
);
CREATE INDEX conversation_executions_conversation_idx ON conversation_executions (org_id, conversation_id);

-- Registered employees; each completed creation of a name within an org is that name's next version.
CREATE TABLE employees (
  employee_id   text PRIMARY KEY,
  org_id        text        NOT NULL,
  name          text        NOT NULL,
  version       integer     NOT NULL,
  spec          jsonb       NOT NULL,
  execution_id  text        NOT NULL,
  registered_at timestamptz NOT NULL,
  UNIQUE (org_id, name, version)
);
CREATE INDEX employees_org_idx ON employees (org_id, registered_at DESC);

-- Down Migration
DROP TABLE employees;
DROP TABLE conversation_executions;
DROP TABLE executions;
DROP INDEX facts_chain_idx;
ALTER TABLE facts DROP COLUMN chain_key;
