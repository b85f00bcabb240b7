-- Up Migration
-- Every index of `facts` is paid for by every fact the projector appends. These three serve no query:
-- an execution's facts are found through `facts_chain_idx` (`chain_key = 'execution/' || id`, the
-- same rows as `execution_id = id`), and nothing reads facts by conversation or by org alone.
DROP INDEX facts_execution_idx;
DROP INDEX facts_conversation_idx;
DROP INDEX facts_org_idx;

-- Down Migration
CREATE INDEX facts_execution_idx ON facts (execution_id, seq) WHERE execution_id IS NOT NULL;
CREATE INDEX facts_conversation_idx ON facts (conversation_id, seq) WHERE conversation_id IS NOT NULL;
CREATE INDEX facts_org_idx ON facts (org_id, seq);
